'use strict'

// `node stories/backend/slow.js`: the case study's fixed server, its content
// fetched from a backend process over HTTP on every request, each fetch on
// a new connection (the original opened a new MySQL connection per request).
// Node's default agent keeps connections alive since Node 19; `agent: false`
// is what a client without a pool does: connect, ask, close.

const http = require('node:http')
const errors = require('restify-errors')
const createFixedServer = require('../../fixed')
const { launch } = require('../../core/launch')
const { startBackend } = require('./start-backend')

async function createServer ({ backendOrigin = process.env.BACKEND_ORIGIN } = {}) {
  const origin = backendOrigin || await startBackend()

  function fetchContent (url, callback) {
    http.get(origin + url, { agent: false }, (res) => { // the story's line: a new connection per fetch
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => {
        if (res.statusCode !== 200) return callback(new errors.BadGatewayError('content backend answered %d', res.statusCode))
        callback(null, Buffer.concat(chunks).toString('utf8'), res.headers['x-content-version'])
      })
    }).on('error', (err) => callback(new errors.BadGatewayError('content backend unreachable: %s', err.message)))
  }

  return createFixedServer({ source: { fetchContent } })
}

module.exports = createServer

if (require.main === module) launch(createServer, 'backend-slow')
