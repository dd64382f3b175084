'use strict'

// What fixed (and the node:http reference) sends for /seed/v1: body, ETag and the headers of a 200 and a
// 304, built once per change of content or minute and shared by every response in between.

const fastJson = require('fast-json-stringify')
const { CACHE_CONTROL, SEED_SCHEMA, seedBody } = require('./seed-contract')

const serializeSeed = fastJson(SEED_SCHEMA)

function createRepresentations (timestamp) {
  let current = null
  return function representationOf (content, version, url) {
    const ts = timestamp()
    if (current === null || current.version !== version || current.ts !== ts || current.url !== url) {
      current = buildRepresentation(content, version, url, ts)
    }
    return current
  }
}

function buildRepresentation (content, version, url, ts) {
  const body = Buffer.from(serializeSeed(seedBody(content, url, ts)))
  // The content's version and the minute are all the body depends on for this URL, so they name it.
  const etag = `"${version}.${ts.toString(36)}"`
  return {
    version,
    url,
    ts,
    etag,
    body,
    headers: {
      'Cache-Control': CACHE_CONTROL,
      'Content-Type': 'application/json',
      'Content-Length': body.length,
      ETag: etag
    },
    // A 304 carries the same validators and caching headers a 200 would.
    notModifiedHeaders: {
      'Cache-Control': CACHE_CONTROL,
      ETag: etag
    }
  }
}

module.exports = { createRepresentations }
