'use strict'

// Hostile and malformed input, for every variant: each gets a clear status
// or a clean close, and the next request is served normally.

const t = require('tap')
const net = require('node:net')
const http = require('node:http')
const { VARIANTS } = require('../../tooling/repo')
const { startInProcess } = require('../servers')
const { request } = require('../client')
const { rawExchange } = require('./raw-client')
const { SEED_PATH, seedBody } = require('../../core/seed-contract')
const { CONTENT_BYTES } = require('../../core/content')

async function stillServing (t, url) {
  const res = await request(url)
  t.equal(res.status, 200, 'the next request is served normally')
}

for (const variant of VARIANTS) {
  t.test(`${variant}: malformed If-None-Match values get the full 200`, async (t) => {
    const { url, clock } = await startInProcess(t, variant)
    // What the whole 200 weighs: the content as hex, in the contract's body.
    const fullBodyBytes = Buffer.byteLength(JSON.stringify(seedBody('0'.repeat(2 * CONTENT_BYTES), SEED_PATH, clock.now())))
    for (const value of ['', ' ', '"unterminated', 'W/', ',,,', 'no-quotes', '"a" "b"', 'W/"x', '\t*x', '"\x80\xff"']) {
      const res = await request(url, { headers: { 'if-none-match': value } })
      t.equal(res.status, 200, `${JSON.stringify(value)}: 200`)
      t.equal(Buffer.byteLength(res.body), fullBodyBytes, `${JSON.stringify(value)}: full body`)
    }
  })

  t.test(`${variant}: a very long If-None-Match (300 tags, several KB) is evaluated, not refused`, async (t) => {
    const { url } = await startInProcess(t, variant)
    const current = (await request(url)).headers.etag
    const tags = Array.from({ length: 300 }, (_, i) => `W/"tag-number-${i}"`).join(', ')
    t.ok(tags.length > 5000, `${tags.length} characters`)
    const without = await request(url, { headers: { 'if-none-match': tags } })
    t.equal(without.status, 200, 'without the current tag: 200')
    const withCurrent = await request(url, { headers: { 'if-none-match': `${tags}, ${current}` } })
    t.equal(withCurrent.status, variant === 'fixed' ? 304 : 200,
      variant === 'fixed' ? 'with the current tag last: 304' : 'slow and fast never answer 304')
  })

  t.test(`${variant}: headers over Node's limit get 431, then service goes on`, async (t) => {
    const { url } = await startInProcess(t, variant)
    const res = await request(url, { headers: { 'x-padding': 'x'.repeat(20 * 1024) } })
    t.equal(res.status, 431)
    await stillServing(t, url)
  })

  t.test(`${variant}: malformed percent-encoding and odd paths get 404 JSON`, async (t) => {
    const { origin, url } = await startInProcess(t, variant)
    for (const path of [`${SEED_PATH}%`, '/%E0%A4%A', '/seed%2Fv1', `${SEED_PATH}/`, '/SEED/V1']) {
      const res = await request(origin + path)
      t.equal(res.status, 404, `${path}: 404`)
      t.equal(res.headers['content-type'], 'application/json', `${path}: JSON`)
    }
    await stillServing(t, url)
  })

  t.test(`${variant}: bytes that are not HTTP get 400 and a closed connection`, async (t) => {
    const { origin, url } = await startInProcess(t, variant)
    const { received } = await rawExchange(origin, '\x16\x03\x01 this is not http\r\n\r\n')
    t.match(received, /^HTTP\/1\.1 400 Bad Request/)
    await stillServing(t, url)
  })

  t.test(`${variant}: a client that disconnects mid-response does no harm`, async (t) => {
    const { origin, url } = await startInProcess(t, variant)
    const { hostname, port } = new URL(origin)
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => {
        const socket = net.connect(Number(port), hostname, () => socket.write(`GET ${SEED_PATH} HTTP/1.1\r\nHost: x\r\n\r\n`))
        socket.once('data', () => socket.destroy())
        socket.on('error', () => {})
        socket.on('close', resolve)
      })
    }
    await stillServing(t, url)
  })

  t.test(`${variant}: a client that never reads does not hold up others`, async (t) => {
    const { origin, url } = await startInProcess(t, variant)
    const { hostname, port } = new URL(origin)
    const greedy = net.connect(Number(port), hostname)
    greedy.on('error', () => {})
    t.teardown(() => greedy.destroy())
    await new Promise((resolve) => greedy.once('connect', resolve))
    greedy.pause() // never read: the server's writes back up
    greedy.write(`GET ${SEED_PATH} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(200))
    await new Promise((resolve) => setTimeout(resolve, 300))
    const agent = new http.Agent({ keepAlive: false })
    const results = await Promise.all(Array.from({ length: 5 }, () => request(url, { agent })))
    t.same(results.map((r) => r.status), [200, 200, 200, 200, 200], 'other clients are served')
  })
}
