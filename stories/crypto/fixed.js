'use strict'

// `node stories/crypto/fixed.js`: the same check, done once per credential.
// A request whose Authorization header was checked in the last minute is
// answered from a cache; a new one is derived with crypto.pbkdf2, on
// libuv's thread pool instead of the event loop, and every request that
// arrives with it while it is derived waits for that one derivation.

const crypto = require('node:crypto')
const { LRUCache } = require('lru-cache')
const createFixedServer = require('../../fixed')
const { launch } = require('../../core/launch')
const { createAccount, parseBasicCredentials, keyMatches, unauthorized, ITERATIONS, KEY_BYTES, DIGEST } = require('./account')

// Bounded, so clients sending ever new credentials cannot grow it; expiring,
// so a changed password takes effect within a minute. lru-cache's fetch()
// runs one derivation for all the requests that ask for the same key at once.
const CACHE_ENTRIES = 1000
const CACHE_TTL_MS = 60 * 1000

function createServer (options, account = createAccount(process.env.SEED_PASSWORD)) {
  const verdicts = new LRUCache({
    max: CACHE_ENTRIES,
    ttl: CACHE_TTL_MS,
    fetchMethod: (key, stale, { context: header }) => verify(account, header)
  })
  const server = createFixedServer(options)
  server.pre(function authenticate (req, res, next) {
    const header = req.headers.authorization
    if (!parseBasicCredentials(header)) return next(unauthorized(res))
    // Keyed by a hash of the header: the cache holds no password.
    const key = crypto.createHash('sha256').update(header).digest('base64')
    const known = verdicts.get(key)
    if (known !== undefined) return next(known ? undefined : unauthorized(res))
    verdicts.fetch(key, { context: header }).then( // the story's line, once per credential
      (valid) => next(valid ? undefined : unauthorized(res)),
      next)
  })
  return server
}

function verify (account, header) {
  const { user, password } = parseBasicCredentials(header)
  return new Promise((resolve, reject) => {
    crypto.pbkdf2(password, account.salt, ITERATIONS, KEY_BYTES, DIGEST, (err, derived) => {
      if (err) reject(err)
      else resolve(keyMatches(account, user, derived))
    })
  })
}

module.exports = createServer

if (require.main === module) launch(createServer, 'crypto-fixed')
