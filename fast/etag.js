'use strict'

// The case study's ETag middleware, as it was. Read it looking for the line
// that decides whether an 'after' listener is added.

const crypto = require('node:crypto')

// Lifts Node's limit of 10 listeners per event, which would otherwise print a
// MaxListenersExceededWarning naming this leak (try `npm run trace-leak`).
require('node:events').defaultMaxListeners = Infinity

module.exports = etagger

function etagger () {
  const cache = {}
  let afterEventAttached = false

  function attachAfterEvent (server) {
    // The one-line fix: test the boolean, not the function's own name.
    if (afterEventAttached === true) return
    afterEventAttached = true
    // Runs after every response: stores the hash of the body just sent, so
    // the next response to this URL carries it as its ETag.
    server.on('after', (req, res) => {
      if (res.statusCode !== 200) return
      if (!res._body) return
      const key = crypto.createHash('sha512')
        .update(req.url)
        .digest()
        .toString('hex')
      const etag = crypto.createHash('sha512')
        .update(JSON.stringify(res._body))
        .digest()
        .toString('hex')
      if (cache[key] !== etag) cache[key] = etag
    })
  }

  // Bound to the server by server.use(etagger().bind(server)): `this` is it.
  return function (req, res, next) {
    attachAfterEvent(this)
    const key = crypto.createHash('sha512')
      .update(req.url)
      .digest()
      .toString('hex')
    if (key in cache) res.set('Etag', cache[key])
    res.set('Cache-Control', 'public, max-age=120')
    next()
  }
}
