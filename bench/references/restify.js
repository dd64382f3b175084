'use strict'

// `node bench/references/restify`: restify's ceiling, one bare route sending fixed's bytes (docs/benchmark.md).

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
    // One setImmediate later, as fixed and node-http answer: their content source calls back there.
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
