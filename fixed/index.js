'use strict'

// `node fixed` starts this server; require('./fixed') builds it without listening.
//
// What changed from fast/: no ETag middleware and no 'after' listener. The
// route knows which content version and which minute it is serving, so it
// names the ETag from those two, serializes the body once per change of
// either (core/representation.js, shared with the node:http ceiling the
// benchmark holds fixed to), and answers If-None-Match with 304.

const restify = require('restify')
const { createContentSource } = require('../core/content')
const { createMinuteClock } = require('../core/clock')
const { ifNoneMatchMatches } = require('../core/if-none-match')
const { launch } = require('../core/launch')
const { createRepresentations } = require('../core/representation')
const { SEED_PATH } = require('../core/seed-contract')

function createServer ({ source = createContentSource(), timestamp = createMinuteClock() } = {}) {
  // An empty name: restify then skips setting a `Server` header on every
  // response, which also lets writeHead() take Node's fast path (headers
  // passed in one object, none set before).
  const server = restify.createServer({ name: '' })
  const representationOf = createRepresentations(timestamp)

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

  server.get(SEED_PATH, serveSeed)
  // restify answers 405 to HEAD on a GET-only route; HEAD must work like GET.
  server.head(SEED_PATH, serveSeed)
  return server
}

module.exports = createServer

if (require.main === module) launch(createServer, __dirname)
