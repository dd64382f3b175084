'use strict'

// The crypto story's one account and how its password is stored: PBKDF2
// with SHA-512 and a random salt, as the original's auth middleware did.
// Both servers of the story check Basic credentials against it; they
// differ in when they derive the key.

const crypto = require('node:crypto')
const errors = require('restify-errors')

const USER = 'seed'
const DEFAULT_PASSWORD = 'workshop'
// 10,000 iterations take a few milliseconds. OWASP's advice for
// PBKDF2-HMAC-SHA512 is 210,000, some twenty times the work: the slow
// server would then answer only a handful of requests a second. Fewer keep
// the story's slow server measurable; the lesson is the same at any count.
const ITERATIONS = 10000
const KEY_BYTES = 64
const DIGEST = 'sha512'

/** The stored form of `password`: { user, salt, key }. */
function createAccount (password = DEFAULT_PASSWORD) {
  const salt = crypto.randomBytes(16)
  return { user: USER, salt, key: crypto.pbkdf2Sync(password, salt, ITERATIONS, KEY_BYTES, DIGEST) }
}

/**
 * The user and password of an `Authorization: Basic` header, or null when
 * the header is missing or not Basic credentials.
 */
function parseBasicCredentials (header) {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header ?? '')
  if (!match) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

/** Whether a key derived from the offered password matches the account's, compared in constant time. */
function keyMatches (account, user, derivedKey) {
  return user === account.user && crypto.timingSafeEqual(derivedKey, account.key)
}

/** The 401 for missing or wrong credentials, with the challenge RFC 7617 asks for. */
function unauthorized (res) {
  res.header('WWW-Authenticate', 'Basic realm="seed", charset="UTF-8"')
  return new errors.UnauthorizedError('valid Basic credentials required')
}

module.exports = { createAccount, parseBasicCredentials, keyMatches, unauthorized, USER, DEFAULT_PASSWORD, ITERATIONS, KEY_BYTES, DIGEST }
