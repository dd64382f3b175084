'use strict'

// What fixed (and the node:http ceiling the benchmark holds it to) sends for
// /seed/v1: the body serialized once, its ETag, and the header sets of a 200
// and a 304, all built once per change of content or minute and shared by
// every response in between.

const fastJson = require('fast-json-stringify')
const { CACHE_CONTROL, SEED_SCHEMA, seedBody } = require('./seed-contract')

const serializeSeed = fastJson(SEED_SCHEMA)

/**
 * Returns `representationOf(content, version, url)`, which gives the
 * representation { etag, body, headers, notModifiedHeaders } for that
 * content and URL at the current `timestamp()`, rebuilding it only when one
 * of the three changed since the last call.
 */
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
  // The content's version and the minute are all the body depends on for
  // this URL (the only one the content source serves), so together they
  // name it: the tag changes exactly when the bytes do, with no hashing.
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
