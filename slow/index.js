'use strict'

// `node slow` or `node fast` starts this server; require() builds it, not listening.

const restify = require('restify')
const { createContentSource } = require('../core/content')
const { createMinuteClock } = require('../core/clock')
const { launch } = require('../core/launch')
const { SEED_PATH, seedBody } = require('../core/seed-contract')
const etagger = require('./etag')

function createServer ({ source = createContentSource(), timestamp = createMinuteClock() } = {}) {
  const server = restify.createServer()
  server.use(etagger().bind(server))

  server.get(SEED_PATH, function (req, res, next) {
    source.fetchContent(req.url, (err, content) => {
      if (err) return next(err)
      res.send(seedBody(content, req.url, timestamp()))
      next()
    })
  })

  return server
}

module.exports = createServer

if (require.main === module) launch(createServer, __dirname)
