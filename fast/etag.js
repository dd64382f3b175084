'use strict'

// The case study's ETag middleware with the one-line fix: the guard now tests
// the boolean, so the 'after' listener is added once, by the first request.
// Everything else is slow/etag.js unchanged: every response is still
// serialized and sha512-hashed after it is sent (fixed/ removes that).

const crypto = require('node:crypto')
const { CACHE_CONTROL } = require('../core/seed-contract')

// Lifts Node's limit of 10 listeners per event, kept from slow/ so that the
// two differ in the guard only; with one listener, the limit is never near.
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
    res.set('Cache-Control', CACHE_CONTROL)
    next()
  }
}
