'use strict'

// `node stories/backend/fixed.js`: the same backend, reached through a pool
// of kept-alive connections (undici), its answer cached for CACHE_TTL_MS.
// Every request in that window is served without asking the backend, and
// the requests that arrive while the content is being fetched share that
// one fetch. CONTENT_CACHE_TTL_MS=0 turns the cache off and leaves the pool.

const { Pool } = require('undici')
const { LRUCache } = require('lru-cache')
const errors = require('restify-errors')
const createFixedServer = require('../../fixed')
const { launch } = require('../../core/launch')
const { startBackend } = require('./start-backend')

// The original's pool held 10 connections.
const POOL_CONNECTIONS = 10
// The original cached its questions for 30 minutes; the case study's
// content changes, so a second here: at most a second stale.
const DEFAULT_CACHE_TTL_MS = 1000

async function createServer ({ backendOrigin = process.env.BACKEND_ORIGIN, cacheTtlMs = cacheTtlFrom(process.env) } = {}) {
  const pool = new Pool(backendOrigin || await startBackend(), { connections: POOL_CONNECTIONS })

  async function fetchFromBackend (url) {
    const { statusCode, headers, body } = await pool.request({ path: url, method: 'GET' }) // the story's line: a pooled connection
    const text = await body.text()
    if (statusCode !== 200) throw new errors.BadGatewayError('content backend answered %d', statusCode)
    return { content: text, version: headers['x-content-version'] }
  }

  const cache = cacheTtlMs > 0
    ? new LRUCache({ max: 100, ttl: cacheTtlMs, fetchMethod: fetchFromBackend })
    : { fetch: fetchFromBackend }

  // The answer goes out on the next turn of the event loop, as the case
  // study's content source gives it (core/content.js), not in the same turn
  // the request arrived, which a cache hit would otherwise do. Over loopback
  // a response's write runs the client's side of TCP too, and wakes the
  // client when it sleeps: answered in the turn they arrive, the responses go
  // out one by one and each pays that wake-up; answered on the next turn, the
  // turn's responses go out together and the client wakes once for them.
  // Answered at once, this server cost well above
  // fixed's CPU per request (docs/stories.md, "Story: a new backend connection on every request, then no cache").
  function fetchContent (url, callback) {
    cache.fetch(url).then(
      ({ content, version }) => setImmediate(callback, null, content, version),
      (err) => setImmediate(callback, err.statusCode ? err : new errors.BadGatewayError('content backend unreachable: %s', err.message)))
  }

  const server = createFixedServer({ source: { fetchContent } })
  server.on('close', () => pool.close())
  return server
}

function cacheTtlFrom (env) {
  if (env.CONTENT_CACHE_TTL_MS === undefined || env.CONTENT_CACHE_TTL_MS === '') return DEFAULT_CACHE_TTL_MS
  const ms = Number(env.CONTENT_CACHE_TTL_MS)
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`CONTENT_CACHE_TTL_MS must be an integer >= 0, got ${JSON.stringify(env.CONTENT_CACHE_TTL_MS)}`)
  return ms
}

module.exports = createServer

if (require.main === module) launch(createServer, 'backend-fixed')
