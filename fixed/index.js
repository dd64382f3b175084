'use strict'

// `node fixed` starts this server; require('./fixed') builds it without listening.
//
// What changed from fast/: no ETag middleware and no 'after' listener. The
// route knows which content version and which minute it is serving, so it
// names the ETag from those two, serializes the body once per change of
// either, and answers If-None-Match with 304 Not Modified.

const restify = require('restify')
const fastJson = require('fast-json-stringify')
const { createContentSource } = require('../util/content')
const { createMinuteClock } = require('../util/clock')
const { ifNoneMatchMatches } = require('../util/if-none-match')
const { launch } = require('../util/launch')

const serializeSeed = fastJson({
  type: 'object',
  properties: {
    data: { type: 'string' },
    url: { type: 'string' },
    ts: { type: 'integer' }
  },
  required: ['data', 'url', 'ts']
})

const CACHE_CONTROL = 'public, max-age=120'

function createServer ({ source = createContentSource(), timestamp = createMinuteClock() } = {}) {
  const server = restify.createServer()
  let current = null

  // The representation for this content, URL and minute: built once, then
  // reused by every request until one of the three changes.
  function representationOf (content, version, url) {
    const ts = timestamp()
    if (current === null || current.version !== version || current.ts !== ts || current.url !== url) {
      current = buildRepresentation({ content, version, url, ts })
    }
    return current
  }

  function serveSeed (req, res, next) {
    source.fetchContent(req.url, (err, content, version) => {
      if (err) return next(err)
      const representation = representationOf(content, version, req.url)
      if (ifNoneMatchMatches(req.headers['if-none-match'], representation.etag)) {
        res.writeHead(304, representation.notModifiedHeaders)
        res.end()
      } else {
        res.writeHead(200, representation.headers)
        // For HEAD, Node sends the headers and drops the body.
        res.end(representation.body)
      }
      next()
    })
  }

  server.get('/seed/v1', serveSeed)
  // restify answers 405 to HEAD on a GET-only route; HEAD must work like GET.
  server.head('/seed/v1', serveSeed)
  return server
}

function buildRepresentation ({ content, version, url, ts }) {
  const body = Buffer.from(serializeSeed({ data: content, url, ts }))
  // The content's version and the minute are all the body depends on for
  // this URL (the only one the content source serves), so together they
  // name it: the tag changes exactly when the bytes do, with no hashing.
  const etag = `"${version}.${ts.toString(36)}"`
  // Shared by every response until the representation changes. A 304
  // carries the same validators and caching headers a 200 would.
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
    notModifiedHeaders: {
      'Cache-Control': CACHE_CONTROL,
      ETag: etag
    }
  }
}

module.exports = createServer

if (require.main === module) launch(createServer, __dirname)
