'use strict'

// The backend story (stories/backend): how many connections and requests
// each server makes to its backend per request, and a backend that is down.

const t = require('tap')
const http = require('node:http')
const { createContentSource } = require('../../core/content')
const { urlOf } = require('../../core/launch')
const { SEED_PATH } = require('../../core/seed-contract')
const { createContentServer } = require('../../stories/backend/content-server')
const createSlowServer = require('../../stories/backend/slow')
const createFixedServer = require('../../stories/backend/fixed')
const { request } = require('../client')

// A backend in this process that counts what reaches it.
async function startBackend (t) {
  const server = createContentServer({ source: createContentSource({ seed: 'test' }) })
  const seen = { connections: 0, requests: 0 }
  server.on('connection', () => seen.connections++)
  server.on('request', () => seen.requests++)
  await listen(t, server)
  return { origin: urlOf(server), seen }
}

async function listen (t, server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    (server.server || server).closeAllConnections()
    server.close(resolve)
  }))
  return urlOf(server) + SEED_PATH
}

async function load (t, url, { sequential, together }) {
  const agent = new http.Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())
  const statuses = []
  for (let i = 0; i < sequential; i++) statuses.push((await request(url, { agent })).status)
  const batch = await Promise.all(Array.from({ length: together }, () => request(url)))
  return [...statuses, ...batch.map((r) => r.status)]
}

t.test('slow opens a new backend connection for every request', async (t) => {
  const backend = await startBackend(t)
  const url = await listen(t, await createSlowServer({ backendOrigin: backend.origin }))
  t.same(await load(t, url, { sequential: 10, together: 30 }), Array(40).fill(200))
  t.same(backend.seen, { connections: 40, requests: 40 })
})

t.test('pooled (no cache) asks the backend every time, over at most 10 kept-alive connections', async (t) => {
  const backend = await startBackend(t)
  const url = await listen(t, await createFixedServer({ backendOrigin: backend.origin, cacheTtlMs: 0 }))
  t.same(await load(t, url, { sequential: 10, together: 30 }), Array(40).fill(200))
  t.equal(backend.seen.requests, 40)
  t.ok(backend.seen.connections >= 1 && backend.seen.connections <= 10, `${backend.seen.connections} connections`)
})

t.test('fixed asks the backend once per cache lifetime, whatever the requests', async (t) => {
  const backend = await startBackend(t)
  const url = await listen(t, await createFixedServer({ backendOrigin: backend.origin, cacheTtlMs: 60000 }))
  t.same(await load(t, url, { sequential: 10, together: 30 }), Array(40).fill(200))
  t.same(backend.seen, { connections: 1, requests: 1 })
})

t.test('fixed asks again once its cached content expired', async (t) => {
  const backend = await startBackend(t)
  const url = await listen(t, await createFixedServer({ backendOrigin: backend.origin, cacheTtlMs: 50 }))
  t.equal((await request(url)).status, 200)
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.equal((await request(url)).status, 200)
  t.equal(backend.seen.requests, 2)
})

t.test('both serve the body the backend holds, with the ETag of its version', async (t) => {
  const backend = await startBackend(t)
  const slow = await request(await listen(t, await createSlowServer({ backendOrigin: backend.origin })))
  const fixed = await request(await listen(t, await createFixedServer({ backendOrigin: backend.origin })))
  t.equal(slow.status, 200)
  t.equal(fixed.status, 200)
  t.equal(JSON.parse(fixed.body).content, JSON.parse(slow.body).content)
  // The ETag names the version and the minute; the minute may turn between the two.
  t.equal(fixed.headers.etag.split('.')[0], slow.headers.etag.split('.')[0])
})

t.test('a backend that is down: 502 from both, and they keep serving', async (t) => {
  const closed = http.createServer()
  await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const deadOrigin = urlOf(closed)
  await new Promise((resolve) => closed.close(resolve))
  for (const [name, create] of Object.entries({ slow: createSlowServer, fixed: createFixedServer })) {
    const url = await listen(t, await create({ backendOrigin: deadOrigin }))
    t.equal((await request(url)).status, 502, name)
    t.equal((await request(url)).status, 502, `${name}, again`)
  }
})
