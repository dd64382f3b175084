'use strict'

// The case study's ETag middleware: slow/ as it was, fast/ with the one-line
// fix. Find the line that decides whether an 'after' listener is added.

const crypto = require('node:crypto')
const { CACHE_CONTROL } = require('../core/seed-contract')

// Lifts Node's limit of 10 listeners per event, which would otherwise print a
// MaxListenersExceededWarning naming slow/'s leak (try `npm run trace-leak`).
require('node:events').defaultMaxListeners = Infinity

module.exports = etagger

function etagger () {
  const cache = {}
  // eslint-disable-next-line no-unused-vars -- in slow/, assigned, never read: the bug
  let afterEventAttached = false

  function attachAfterEvent (server) {
    if (attachAfterEvent === true) return
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
    res.set('Cache-Control', CACHE_CONTROL)
    next()
  }
}
