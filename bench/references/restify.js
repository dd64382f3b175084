'use strict'

// The ceiling a restify server can reach: one bare restify route sending
// the very bytes and headers fixed sends, built once from the first
// request's content and minute and then sent as they are, with no content
// source asked and no ETag logic per request. Beside node-http (fixed's
// bytes minus restify), it splits fixed's distance to plain node:http into
// restify's own work per request (node-http to here) and fixed's (here to
// fixed). `node bench/references/restify` starts it.

const restify = require('restify')
const { createContentSource } = require('../../core/content')
const { createMinuteClock } = require('../../core/clock')
const { launch } = require('../../core/launch')
const { createRepresentations } = require('../../core/representation')
const { SEED_PATH } = require('../../core/seed-contract')

function createServer ({ source = createContentSource(), timestamp = createMinuteClock() } = {}) {
  // An empty name, as fixed has: no Server header, Node's fast writeHead path.
  const server = restify.createServer({ name: '' })
  const representationOf = createRepresentations(timestamp)
  let representation = null

  function send (res, next) {
    res.writeHead(200, representation.headers)
    res.end(representation.body)
    next()
  }

  server.get(SEED_PATH, (req, res, next) => {
    // Answered one setImmediate later, as fixed and node-http answer (their
    // content source calls back there): answering in the same tick cost
    // more CPU per request than fixed itself, which would split nothing.
    if (representation !== null) return setImmediate(send, res, next)
    source.fetchContent(req.url, (err, content, version) => {
      if (err) return next(err)
      representation ??= representationOf(content, version, req.url)
      send(res, next)
    })
  })
  return server
}

module.exports = createServer

if (require.main === module) launch(createServer, __filename)
