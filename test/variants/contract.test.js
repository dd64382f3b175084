'use strict'

// The contract every variant keeps: same resource, same errors, same bytes.

const t = require('tap')
const { VARIANTS } = require('../../tooling/repo')
const { startInProcess, drivenClock } = require('../servers')
const { request } = require('../client')
const { SEED_PATH, CACHE_CONTROL } = require('../../core/seed-contract')

for (const variant of VARIANTS) {
  t.test(`${variant}: GET ${SEED_PATH} answers 200 JSON {data, url, ts}`, async (t) => {
    const { url, clock } = await startInProcess(t, variant)
    const res = await request(url)
    t.equal(res.status, 200)
    t.equal(res.headers['content-type'], 'application/json')
    t.equal(res.headers['cache-control'], CACHE_CONTROL)
    t.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body), 'Content-Length is the body length')
    const body = JSON.parse(res.body)
    t.same(Object.keys(body), ['data', 'url', 'ts'], 'fields in order')
    t.match(body.data, /^[0-9a-f]{10000}$/, 'data is 5000 bytes as hex')
    t.equal(body.url, `${SEED_PATH}`)
    t.equal(body.ts, clock.now(), 'ts is the minute clock')
  })

  t.test(`${variant}: ts moves once a minute, data stays`, async (t) => {
    const { url, clock } = await startInProcess(t, variant)
    const first = JSON.parse((await request(url)).body)
    clock.advance(59_999)
    const sameMinute = JSON.parse((await request(url)).body)
    t.equal(sameMinute.ts, first.ts, 'ts holds for 60 s')
    clock.advance(1)
    const nextMinute = JSON.parse((await request(url)).body)
    t.equal(nextMinute.ts, first.ts + 60_000, 'ts moves once 60 s have passed')
    t.equal(nextMinute.data, first.data, 'content is made once')
  })

  t.test(`${variant}: other paths 404 and other methods 405, as restify JSON errors`, async (t) => {
    const { origin, url } = await startInProcess(t, variant)
    const missing = await request(origin + '/nope')
    t.equal(missing.status, 404)
    t.same(JSON.parse(missing.body), { code: 'ResourceNotFound', message: '/nope does not exist' })
    const post = await request(url, { method: 'POST' })
    t.equal(post.status, 405)
    t.same(JSON.parse(post.body), { code: 'MethodNotAllowed', message: 'POST is not allowed' })
  })

  t.test(`${variant}: a query string is a URL the content source does not know: 404`, async (t) => {
    const { url } = await startInProcess(t, variant)
    const res = await request(url + '?page=2')
    t.equal(res.status, 404)
    t.same(JSON.parse(res.body), { code: 'NotFound', message: `${SEED_PATH}?page=2 does not exist` })
  })

  t.test(`${variant}: a failing content fetch answers 502 JSON without a stack, then recovers`, async (t) => {
    const { url, source } = await startInProcess(t, variant)
    source.setOutage(true)
    const failed = await request(url)
    t.equal(failed.status, 502)
    t.equal(failed.headers['content-type'], 'application/json')
    t.same(JSON.parse(failed.body), { code: 'BadGateway', message: 'content backend unavailable' })
    t.notMatch(failed.body, /at .*\.js/, 'no stack trace in the body')
    source.setOutage(false)
    t.equal((await request(url)).status, 200, 'the next request is served')
  })
}

t.test('all variants send byte-identical bodies for the same seed and clock', async (t) => {
  const bodies = []
  for (const variant of VARIANTS) {
    const { url } = await startInProcess(t, variant, { seed: 'same' })
    bodies.push((await request(url)).body)
  }
  t.equal(bodies[1], bodies[0], 'fast sends what slow sends')
  t.equal(bodies[2], bodies[0], 'fixed sends what slow sends')
})

t.test("the bare restify reference sends fixed's bytes and headers", async (t) => {
  const clock = drivenClock()
  const fixed = await request((await startInProcess(t, 'fixed', { seed: 'same', clock })).url)
  const reference = await startInProcess(t, 'bench/references/restify.js', { seed: 'same', clock })
  for (let i = 0; i < 2; i++) {
    const sent = await request(reference.url)
    t.equal(sent.body, fixed.body, `response ${i + 1}: the same body`)
    for (const header of ['cache-control', 'content-type', 'content-length', 'etag']) {
      t.equal(sent.headers[header], fixed.headers[header], `response ${i + 1}: the same ${header}`)
    }
  }
})

t.test('the seed decides the content', async (t) => {
  const a = await startInProcess(t, 'fixed', { seed: 'a' })
  const a2 = await startInProcess(t, 'fixed', { seed: 'a' })
  const b = await startInProcess(t, 'fixed', { seed: 'b' })
  const dataOf = async ({ url }) => JSON.parse((await request(url)).body).data
  t.equal(await dataOf(a2), await dataOf(a), 'same seed, same content')
  t.not(await dataOf(b), await dataOf(a), 'another seed, other content')
})
