'use strict'

// The ceiling: plain node:http serving what fixed serves, from the same content source and cached
// representation, minus restify. `node bench/references/node-http` starts it.

const http = require('node:http')
const { createContentSource } = require('../../core/content')
const { createMinuteClock } = require('../../core/clock')
const { launch } = require('../../core/launch')
const { createRepresentations } = require('../../core/representation')

function createServer ({ source = createContentSource(), timestamp = createMinuteClock() } = {}) {
  const representationOf = createRepresentations(timestamp)
  return http.createServer((req, res) => {
    source.fetchContent(req.url, (err, content, version) => {
      if (err) {
        res.writeHead(err.statusCode, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify(err))
        return
      }
      const representation = representationOf(content, version, req.url)
      res.writeHead(200, representation.headers)
      res.end(representation.body)
    })
  })
}

module.exports = createServer

if (require.main === module) launch(createServer, __filename)
