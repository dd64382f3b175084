'use strict'

// `node fast` starts this server; require('./fast') builds it without listening.

const restify = require('restify')
const { createContentSource } = require('../util/content')
const { createMinuteClock } = require('../util/clock')
const { launch } = require('../util/launch')
const etagger = require('./etag')

function createServer ({ source = createContentSource(), timestamp = createMinuteClock() } = {}) {
  const server = restify.createServer()
  server.use(etagger().bind(server))

  server.get('/seed/v1', function (req, res, next) {
    source.fetchContent(req.url, (err, content) => {
      if (err) return next(err)
      res.send({ data: content, url: req.url, ts: timestamp() })
      next()
    })
  })

  return server
}

module.exports = createServer

if (require.main === module) launch(createServer, __dirname)
