'use strict'

// Hostile clients, by class, against `node <variant>` as a user starts it:
// each gets a clear status or a clean close, and the next request is
// served. Where the answer is Node's own (its HTTP parser, its limits), the
// test pins it, so that a Node upgrade that changes it is noticed.
// The launcher's slow-client timeouts are shortened here through their
// settings (defaults: 10 s for the head, 30 s for the whole request).

const t = require('tap')
const net = require('node:net')
const http = require('node:http')
const { VARIANTS } = require('../../../tooling/repo')
const { request } = require('../../client')
const { rawExchange, statusesOf } = require('../../variants/raw-client')
const { spawnServer } = require('../../../tooling/spawn-server')
const { SEED_PATH } = require('../../../core/seed-contract')

const HEADERS_TIMEOUT_MS = 500
const REQUEST_TIMEOUT_MS = 1000
const CHECK_INTERVAL_MS = 1000 // the launcher checks the timeouts every second
const IDLE_CONNECTIONS = 1000
const KEEP_ALIVE_IDLE = { slow: 50, fast: 1000, fixed: 1000 } // each slow request adds a listener
const KEEP_ALIVE_BATCH = 100
const PIPELINED = { slow: 20, fast: 500, fixed: 500 } // slow answers tens per second

async function stillServing (t, url) {
  t.equal((await request(url)).status, 200, 'the next request is served normally')
}

// A head and a body that never end, beside idle connections.
async function slowClients (t, { url, origin, hostname, port }) {
  const waitMs = REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + 2000
  // Past the listen backlog (511) a connection waits for a SYN retry, a
  // second or more; the first ones may be answered 408 and closed by then.
  const idle = Array.from({ length: IDLE_CONNECTIONS }, () => {
    const socket = net.connect(Number(port), hostname)
    socket.on('error', () => {})
    socket.resume() // read, so that the server's answer and close are seen
    return {
      socket,
      settled: new Promise((resolve) => { socket.once('connect', resolve); socket.once('close', resolve) }),
      closed: new Promise((resolve) => socket.once('close', resolve))
    }
  })
  t.teardown(() => idle.forEach(({ socket }) => socket.destroy()))
  await Promise.all(idle.map(({ settled }) => settled))
  const idleClosed = Promise.all(idle.map(({ closed }) => closed))
  // Each drips until its timeout and then goes quiet. Past the timeout,
  // Node may answer 408 and close at once, with a reset if a drip is still
  // unread, and a drip written after that reset arrived destroys the socket
  // before it reads the 408 (RFC 9112, section 9.6): a busy client lost it so.
  // The server cannot time out sooner: its clock starts after this connect.
  const [slowHead, slowBody] = await Promise.all([
    rawExchange(origin, `GET ${SEED_PATH} HTTP/1.1\r\nHost: x\r\n`, { trickle: 'X-Drip: 1\r\n', trickleForMs: HEADERS_TIMEOUT_MS, waitMs }),
    rawExchange(origin, `GET ${SEED_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n`, { trickle: 'a', trickleForMs: REQUEST_TIMEOUT_MS, waitMs }),
    (async () => {
      await stillServing(t, url) // idle connections block nobody
      const started = Date.now()
      await idleClosed
      t.ok(Date.now() - started < HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + 1000,
        `the ${IDLE_CONNECTIONS} idle connections were closed by the server within the headers timeout`)
    })()
  ])
  // How each closed, in the messages.
  const closed = ({ ms, error, received }) => `${ms} ms, ${error ?? 'no error'}, ${received.length} bytes`
  t.same(statusesOf(slowHead.received), [408], `a head that never ends: 408 (${closed(slowHead)})`)
  t.ok(slowHead.ms >= HEADERS_TIMEOUT_MS && slowHead.ms < HEADERS_TIMEOUT_MS + CHECK_INTERVAL_MS + 1000,
    `closed after the headers timeout (${slowHead.ms} ms)`)
  t.same(statusesOf(slowBody.received), [200, 408], `a body that never ends: answered, then 408 (${closed(slowBody)})`)
  t.ok(slowBody.ms >= REQUEST_TIMEOUT_MS && slowBody.ms < REQUEST_TIMEOUT_MS + CHECK_INTERVAL_MS + 1000,
    `closed after the request timeout (${slowBody.ms} ms)`)
  await stillServing(t, url)
}

// Keep-alive connections, each left idle once answered.
async function idleKeepAlive (t, { variant, url }) {
  const count = KEEP_ALIVE_IDLE[variant]
  // An agent per client: one connection each, kept open once answered.
  const agents = Array.from({ length: count }, () => new http.Agent({ keepAlive: true }))
  t.teardown(() => agents.forEach((agent) => agent.destroy()))
  // Opened a hundred at a time: all thousand at once would race this
  // server's 500 ms headers timeout, which counts from the connection,
  // not from when a busy loop gets to read it (CI, on a slower CPU, got
  // one 408 from fast that way). Once answered, they all stay open.
  const responses = []
  for (let i = 0; i < count; i += KEEP_ALIVE_BATCH) {
    responses.push(...await Promise.all(agents.slice(i, i + KEEP_ALIVE_BATCH).map((agent) => request(url, { agent }))))
  }
  t.same([...new Set(responses.map((res) => res.status))], [200], 'every one answered 200')
  t.same([...new Set(responses.map((res) => res.headers['keep-alive']))], ['timeout=5'],
    "and told Node's keepAliveTimeout, which closes them after 5 s idle (pinned)")
  const idle = agents.filter((agent) => Object.values(agent.freeSockets).flat().length === 1).length
  t.equal(idle, count, `${count} connections now idle and open`)
  await stillServing(t, url)
}

// Conflicting Content-Length and Transfer-Encoding.
async function smuggling (t, { url, origin }) {
  const attempts = {
    'Content-Length with Transfer-Encoding': `POST ${SEED_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n`,
    'two different Content-Lengths': `POST ${SEED_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef`,
    'chunked not last in Transfer-Encoding': `POST ${SEED_PATH} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n`
  }
  for (const [name, raw] of Object.entries(attempts)) {
    const { received } = await rawExchange(origin, raw)
    t.same(statusesOf(received), [400], `${name}: 400 and the connection closed, nothing smuggled`)
  }
  await stillServing(t, url)
}

// A request line over Node's header limit.
async function overLongUrl (t, { url, origin }) {
  const { received } = await rawExchange(origin, `GET ${SEED_PATH}?${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`)
  t.same(statusesOf(received), [431], "over Node's 16 KB header limit, which counts the request line")
  await stillServing(t, url)
}

// Requests pipelined on one connection.
async function pipelinedFlood (t, { variant, url, origin }) {
  const count = PIPELINED[variant]
  const flood = `GET ${SEED_PATH} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(count - 1) + `GET ${SEED_PATH} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`
  const { received } = await rawExchange(origin, flood, { waitMs: 20000 })
  t.same(statusesOf(received), Array(count).fill(200), `${count} responses, every one a 200`)
  await stillServing(t, url)
}

// Connections reset (RST) partway through a request.
async function resets (t, { url, hostname, port }) {
  const partial = [`GET ${SEED_PATH} HTTP/1.1\r\nHo`, `POST ${SEED_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc`, `GET ${SEED_PATH} HTTP/1.1\r\nHost: x\r\n\r\n`]
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => {
      const socket = net.connect(Number(port), hostname, () => {
        socket.write(partial[i % partial.length])
        setImmediate(() => socket.resetAndDestroy()) // RST, not FIN
      })
      socket.on('error', () => {})
      socket.on('close', resolve)
    })
  }
  await stillServing(t, url)
}

// One server per variant takes every class in turn: each must leave it
// serving the next.
for (const variant of VARIANTS) {
  t.test(`node ${variant} against hostile clients`, async (t) => {
    const server = await spawnServer(variant, {
      env: { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) }
    })
    t.teardown(server.stop)
    const { url } = server
    const origin = new URL(url).origin
    const { hostname, port } = new URL(origin)
    const target = { variant, url, origin, hostname, port }
    t.test(`slow clients (slowloris) get 408 and a closed connection, while ${IDLE_CONNECTIONS} idle connections wait`, (t) => slowClients(t, target))
    t.test(`${KEEP_ALIVE_IDLE[variant]} keep-alive connections left idle after their response block nobody`, (t) => idleKeepAlive(t, target))
    t.test('request smuggling (conflicting Content-Length and Transfer-Encoding) gets 400', (t) => smuggling(t, target))
    t.test('an over-long URL gets 431', (t) => overLongUrl(t, target))
    t.test(`a pipelined flood of ${PIPELINED[variant]} requests is answered in order`, (t) => pipelinedFlood(t, target))
    t.test('clients that reset mid-request do no harm', (t) => resets(t, target))
  })
}
