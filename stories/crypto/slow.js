'use strict'

// `node stories/crypto/slow.js`: the case study's fixed server behind an
// auth middleware that derives the password's key with pbkdf2Sync on every
// request. Each derivation holds the event loop for milliseconds, so every
// other client waits for it. Credentials: seed / $SEED_PASSWORD (default
// "workshop"), as HTTP Basic.

const crypto = require('node:crypto')
const createFixedServer = require('../../fixed')
const { launch } = require('../../core/launch')
const { createAccount, parseBasicCredentials, keyMatches, unauthorized, ITERATIONS, KEY_BYTES, DIGEST } = require('./account')

function createServer (options, account = createAccount(process.env.SEED_PASSWORD)) {
  const server = createFixedServer(options)
  server.pre(function authenticate (req, res, next) {
    const credentials = parseBasicCredentials(req.headers.authorization)
    if (!credentials) return next(unauthorized(res))
    const derived = crypto.pbkdf2Sync(credentials.password, account.salt, ITERATIONS, KEY_BYTES, DIGEST) // the story's line
    if (!keyMatches(account, credentials.user, derived)) return next(unauthorized(res))
    next()
  })
  return server
}

module.exports = createServer

if (require.main === module) launch(createServer, 'crypto-slow')
