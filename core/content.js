'use strict'

// The "backend" every variant fetches its content from: CONTENT_BYTES random bytes as hex, for SEED_PATH only.

const crypto = require('node:crypto')
const errors = require('restify-errors')
const { SEED_PATH } = require('./seed-contract')

const CONTENT_BYTES = 5000

// Returns { fetchContent(url, callback(err, content, version)), replaceContent(seed), setOutage(on) }.
// A seed makes the content, and its version, the same in every process and variant.
function createContentSource ({ seed } = {}) {
  let content
  let version
  let outage = false
  replaceContent(seed)

  function replaceContent (newSeed) {
    content = randomHex(newSeed)
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
  const blocks = []
  for (let i = 0; i * 64 < CONTENT_BYTES; i++) {
    blocks.push(crypto.createHash('sha512').update(`${seed}:${i}`).digest())
  }
  return Buffer.concat(blocks).subarray(0, CONTENT_BYTES).toString('hex')
}

module.exports = { createContentSource, CONTENT_BYTES }
