'use strict'

// The "backend" every variant fetches its content from: 5000 random bytes as
// hex, made once, served asynchronously for SEED_PATH only. Tests and the
// benchmark can seed it, replace the content and simulate an outage.

const crypto = require('node:crypto')
const errors = require('restify-errors')
const { SEED_PATH } = require('./seed-contract')

const CONTENT_BYTES = 5000

/**
 * Create a content source. `seed` makes the content reproducible, so that
 * separate processes (and separate variants) serve byte-identical bodies.
 * Returns { fetchContent(url, callback), replaceContent(seed), setOutage(on) }.
 * `callback(err, content, version)`: `version` identifies the content and
 * changes whenever the content does.
 */
function createContentSource ({ seed } = {}) {
  let content
  let version
  let outage = false
  replaceContent(seed)

  function replaceContent (newSeed) {
    content = randomHex(newSeed)
    // Computed once per change of content, like the revision a real store
    // keeps beside a document; identical content gets an identical version,
    // even in another process.
    version = crypto.createHash('sha256').update(content).digest('base64url').slice(0, 16)
  }

  function fetchContent (url, callback) {
    // A backend answers on a later turn of the event loop, never synchronously.
    setImmediate(() => {
      if (outage) return callback(new errors.BadGatewayError('content backend unavailable'))
      if (url !== SEED_PATH) return callback(new errors.NotFoundError('%s does not exist', url))
      callback(null, content, version)
    })
  }

  return {
    fetchContent,
    replaceContent,
    setOutage (on) { outage = Boolean(on) }
  }
}

function randomHex (seed) {
  if (seed === undefined || seed === null || seed === '') {
    return crypto.randomBytes(CONTENT_BYTES).toString('hex')
  }
  // Deterministic bytes: sha512 in counter mode over the seed.
  const blocks = []
  for (let i = 0; i * 64 < CONTENT_BYTES; i++) {
    blocks.push(crypto.createHash('sha512').update(`${seed}:${i}`).digest())
  }
  return Buffer.concat(blocks).subarray(0, CONTENT_BYTES).toString('hex')
}

module.exports = { createContentSource, CONTENT_BYTES }
