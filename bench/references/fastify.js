'use strict'

// The peer a user might pick instead: fastify 5 with a response schema and @fastify/etag, which
// hashes every body it sends. `node bench/references/fastify` starts it.

const http = require('node:http')
const Fastify = require('fastify')
const fastifyEtag = require('@fastify/etag')
const { createContentSource } = require('../../core/content')
const { createMinuteClock } = require('../../core/clock')
const { launch } = require('../../core/launch')
const { SEED_PATH, SEED_SCHEMA, CACHE_CONTROL, seedBody } = require('../../core/seed-contract')

const seedSchema = { response: { 200: SEED_SCHEMA } }

async function createServer ({ source = createContentSource(), timestamp = createMinuteClock() } = {}) {
  // serverFactory hands back the http.Server, for the shared launcher to listen on and close.
  let server
  const app = Fastify({ serverFactory: (handler) => { server = http.createServer(handler); return server } })
  await app.register(fastifyEtag)
  app.get(SEED_PATH, { schema: seedSchema }, (req, reply) => {
    source.fetchContent(req.url, (err, content) => {
      if (err) return reply.send(err)
      reply.header('Cache-Control', CACHE_CONTROL)
      reply.send(seedBody(content, req.url, timestamp()))
    })
    return reply
  })
  await app.ready()
  return server
}

module.exports = createServer

if (require.main === module) launch(createServer, __filename)
