'use strict'

// What `npm run verify` checks in a running server, level by level, as a
// workshop participant climbs them:
//   contract  GET /seed/v1 answers the case study's resource; 404 and 405
//   level 1   the leak is gone: 'after' listeners and CPU per request stay
//             flat as requests accumulate and while many are in flight
//   level 2   the ETag belongs to the body it comes with
//   level 3   If-None-Match is answered with 304 as RFC 9110 says
// Each check is { name, pass (true, false, or null when it could not be
// checked), sent, seen, hint }. The server is one tooling/target-process.js
// started (its probe answers usage, sample, cpu-clock and replace-content).

const http = require('node:http')
const { SEED_PATH, CACHE_CONTROL } = require('../../core/seed-contract')
const { CONTENT_BYTES } = require('../../core/content')
const { checkConditionalGet, ENTITY_TAG, CannotCheckError } = require('../../check/conditional-get')

// Where each hint sends the participant: a heading of the README.
const README = {
  steps: 'README, "The workshop in steps"',
  fix: 'README, "5. Fix the leak in your copy"',
  etag: 'README, "7. An ETag that belongs to its body, and 304"'
}

// Level 1's load, by request counts, as the bench measures slow: every
// machine then measures a leak at the same listener count. CPU per request
// is compared between two windows, early and late, each the cheapest of its
// chunks: a leak makes every late chunk dearer, while what else a process
// spends CPU on now and then (a garbage collection, an optimizing compile
// on a background thread, both counted in the process's CPU time) makes
// some chunks dearer, never all. (CI once failed a fast-like copy on it,
// under tap's coverage hooks on Node 26, when each window was the median of
// its chunks and the late one began right after the listener sampling.)
const LEAK_PROTOCOL = {
  concurrency: 10,
  warmup: 50, // requests 1-50
  window: 50, // early: requests 51-100; late: requests 451-500
  lateFrom: 450,
  chunks: 5
}
// Late over early CPU per request from this on is growth. slow, one more
// listener per request, holds 51 to 100 listeners in the early window and
// 451 to 500 in the late one, and measured x5.1 to x5.9 (AMD EPYC, Node 24
// and 26, on two cores, on one, beside npm run cpu-hog, under tap's
// coverage hooks); a server whose cost does not grow, x0.4 to x1.5 (its
// early window still warming up, some late chunks caught by a collection):
// the line sits between, with room on both sides.
const FLAT_CPU_GROWTH = 3
// A CPU clock that moves in steps this large or smaller reads a chunk of
// ten requests to a few per cent (a chunk of the one-line fix costs about a
// millisecond). Windows' moves in 15.6 ms ticks, where such a chunk reads 0
// or one tick: there each window is instead measured over at least
// COARSE_WINDOW_STEPS steps of the clock (at most 8 % error at its ends),
// and the late window starts as many times later as the early one had to
// grow, so that a leak's growth shows as on a fine clock. Tested with a
// clock rounded down to 15.6 ms in test/verify-coarse-clock.test.js.
const FINE_CPU_CLOCK_MICROS = 50
const COARSE_WINDOW_STEPS = 12
// A server so cheap that even this many requests cost fewer steps is not
// measured on such a clock (the check says so).
const COARSE_WINDOW_MAX_REQUESTS = 20000

// Level 2's new content: any seed other than the server's own.
const NEW_CONTENT_SEED = 'verify: new content'

/**
 * The contract every variant keeps. Resolves to an array of checks.
 */
async function checkContract ({ url, origin }) {
  const checks = []
  const res = await get(url)
  let body = null
  try {
    body = JSON.parse(res.body)
  } catch {}
  const shape = body !== null && typeof body === 'object'
    ? [
        typeof body.data === 'string' && /^[0-9a-f]+$/.test(body.data) && body.data.length === CONTENT_BYTES * 2 ? null : `data is not ${CONTENT_BYTES} bytes as hex`,
        body.url === SEED_PATH ? null : `url is ${JSON.stringify(body.url)}, not "${SEED_PATH}"`,
        Number.isInteger(body.ts) ? null : `ts is ${JSON.stringify(body.ts)}, not an integer`
      ].filter(Boolean)
    : ['the body is not a JSON object']
  checks.push({
    name: `GET ${SEED_PATH} answers 200 with JSON {data, url, ts}`,
    pass: res.status === 200 && shape.length === 0,
    sent: `GET ${SEED_PATH}`,
    seen: `${res.status}, ${res.body.length} bytes${shape.length > 0 ? `: ${shape.join('; ')}` : ''}`,
    hint: `the body is seedBody(content, req.url, timestamp()) from core/seed-contract.js, as in slow/index.js: ${README.steps}`
  })
  checks.push({
    name: `with Cache-Control: ${CACHE_CONTROL}`,
    pass: res.headers['cache-control'] === CACHE_CONTROL,
    sent: `GET ${SEED_PATH}`,
    seen: `Cache-Control: ${res.headers['cache-control'] ?? '(none)'}`,
    hint: 'every response to /seed/v1 may be cached for two minutes: CACHE_CONTROL in core/seed-contract.js'
  })
  const missing = await get(origin + '/nope')
  checks.push({
    name: 'another path answers 404',
    pass: missing.status === 404,
    sent: 'GET /nope',
    seen: `${missing.status} ${missing.body.slice(0, 80)}`,
    hint: 'restify answers 404 for a path no route serves; keep the one route on /seed/v1'
  })
  const post = await get(url, { method: 'POST' })
  checks.push({
    name: 'another method answers 405',
    pass: post.status === 405,
    sent: `POST ${SEED_PATH}`,
    seen: `${post.status} ${post.body.slice(0, 80)}`,
    hint: 'restify answers 405 for a method the route does not register; register GET (and HEAD), nothing else'
  })
  return checks
}

/**
 * Level 1: the leak. Loads the server by request counts and compares an
 * early window with a late one. Resolves to { checks, leaking }, where
 * `leaking` says whether the server's cost grew (the speed comparison then
 * measures it by counts too, as it measures slow).
 */
async function checkLeak (server, { protocol = LEAK_PROTOCOL } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: protocol.concurrency })
  try {
    const load = (count) => sendRequests(server.url, count, { agent, concurrency: protocol.concurrency })
    const clockStep = await server.cpuClockStepMicros()
    const fineClock = clockStep !== null && clockStep <= FINE_CPU_CLOCK_MICROS
    const measure = fineClock ? measureWindow : (...args) => measureWindowOnCoarseClock(...args, clockStep)
    await load(protocol.warmup)
    const early = await measure(server, load, protocol)
    const earlyCount = protocol.warmup + early.requests
    // 1 on a fine clock; on a coarse one, how much longer the early window
    // had to be. Never under 1: a server so costly that fewer requests than
    // a window fill its early one (slow on a slow Windows machine, or under
    // Wine) would otherwise be read earlier in its leak, at fewer listeners,
    // and its growth missed (x2.4 where 451-480 reads more).
    const stretch = Math.max(1, earlyCount / (protocol.warmup + protocol.window))
    const lateFrom = Math.round(protocol.lateFrom * stretch)
    // Meanwhile, how many listeners the server holds while requests are in
    // flight; then a window's worth of requests unmeasured and unsampled, so
    // that what the sampling itself cost (its messages, the garbage they
    // leave) is not counted in the late window: measured, its first chunks
    // cost up to three times the rest.
    const inFlight = await whileLoading(server, load(lateFrom - earlyCount - early.requests))
    await load(early.requests)
    const late = await measure(server, load, protocol)

    const checks = []
    const lateCount = lateFrom + late.requests
    const counted = early.listeners !== null
    const growth = counted ? late.listeners - early.listeners : null
    const most = counted ? Math.max(early.listeners, late.listeners, inFlight) : null
    checks.push({
      name: "'after' listeners: at most one, however many requests came and are in flight",
      pass: counted ? growth === 0 && most <= 1 : null,
      sent: `${lateCount} GET ${SEED_PATH}, ${protocol.concurrency} at a time`,
      seen: counted
        ? `${early.listeners} after ${earlyCount} requests, ${late.listeners} after ${lateCount}, up to ${inFlight} while ${protocol.concurrency} were in flight` +
          (growth > 0 ? `: ${growth} more in ${lateCount - earlyCount} requests, ${describePerRequest(growth, lateCount - earlyCount)}` : '')
        : 'not counted: the server was not started through core/launch.js, whose server the probe can see',
      hint: growth > 0
        ? `one more listener per request: the guard in etag.js decides whether one is added (${README.fix})`
        : `a listener per request in flight (server.once removes it again, but every response runs all of them): add the one listener once (${README.fix})`
    })
    const windows = `requests ${protocol.warmup + 1}-${earlyCount} and ${lateFrom + 1}-${lateCount}`
    const how = fineClock
      ? `the cheapest of ${protocol.chunks} chunks of each`
      : `each at least ${COARSE_WINDOW_STEPS} steps of its CPU clock, which moves by ${formatMicros(clockStep ?? 0)}`
    const sent = `the same ${lateCount} requests; the server's CPU time over ${windows}, ${how}`
    if (!(early.cpuMicrosPerRequest > 0) || !(late.cpuMicrosPerRequest > 0)) {
      checks.push({
        name: 'CPU per request stays flat as requests accumulate',
        pass: null,
        sent,
        seen: `not measured: the server's CPU clock ${clockStep === null ? 'did not move' : `moves by ${formatMicros(clockStep)}`}, ` +
          `and its windows of ${early.requests.toLocaleString('en-US')} and ${late.requests.toLocaleString('en-US')} requests read ${formatMicros(early.spentMicros)} and ${formatMicros(late.spentMicros)}`
      })
      return { checks, leaking: false }
    }
    const cpuGrowth = late.cpuMicrosPerRequest / early.cpuMicrosPerRequest
    checks.push({
      name: 'CPU per request stays flat as requests accumulate',
      pass: cpuGrowth < FLAT_CPU_GROWTH,
      sent,
      seen: `${formatMicros(early.cpuMicrosPerRequest)} then ${formatMicros(late.cpuMicrosPerRequest)} per request (x${cpuGrowth.toFixed(2)}; flat is under x${FLAT_CPU_GROWTH})`,
      hint: `each response costs more than the one before: something piles up per request (${README.fix})`
    })
    return { checks, leaking: cpuGrowth >= FLAT_CPU_GROWTH }
  } finally {
    agent.destroy()
  }
}

/**
 * Level 2: the ETag. Three GETs, new content (for a server launch()
 * started), three more: every 200 carries a valid entity-tag, the same bytes
 * the same tag, and new bytes a new tag from their first response on.
 */
async function checkEtag (server) {
  const responses = []
  const fetchThree = async () => {
    for (let i = 0; i < 3; i++) responses.push(await get(server.url))
  }
  await fetchThree()
  const replaced = await server.replaceContent(NEW_CONTENT_SEED)
  await fetchThree()
  const sent = `6 GET ${SEED_PATH}, one at a time${replaced ? ', the content replaced after the third' : ''}`
  const tags = responses.map((res) => res.headers.etag)
  const listing = tags.map((tag, i) => `${i + 1}: ${abbreviate(tag ?? '(none)')}`).join(', ')

  const untagged = tags.map((tag, i) => tag === undefined ? i + 1 : null).filter(Boolean)
  const checks = [{
    name: 'every 200 carries an ETag, from the first response on',
    pass: untagged.length === 0,
    sent,
    seen: untagged.length === 0 ? 'an ETag on each' : `no ETag on response ${untagged.join(', ')}`,
    hint: `name the tag before the response is sent, from what it sends; a tag stored after sending reaches only the next response (${README.etag})`
  }]
  const malformed = [...new Set(tags.filter((tag) => tag !== undefined && !ENTITY_TAG.test(tag)))]
  checks.push({
    name: 'the ETag is an entity-tag: "opaque" or W/"opaque", quotes included',
    pass: tags.some((tag) => tag !== undefined) ? malformed.length === 0 : false,
    sent,
    seen: abbreviate(malformed.length === 0 ? (tags.find((tag) => tag !== undefined) ?? 'no ETag at all') : `ETag: ${malformed[0]}`),
    hint: 'RFC 9110 §8.8.3: the quotes are part of the tag, "abc" or W/"abc"'
  })

  // Responses grouped by their bytes: the minute clock may move too.
  const groups = []
  responses.forEach((res, i) => {
    let group = groups.find((g) => g.body === res.body)
    if (!group) groups.push(group = { body: res.body, first: i + 1, tags: new Set() })
    group.tags.add(res.headers.etag)
  })
  const unstable = groups.filter((g) => g.tags.size > 1)
  checks.push({
    name: 'the same bytes get the same ETag',
    pass: unstable.length === 0,
    sent,
    seen: listing,
    hint: `the tag must be a function of the body sent with it (${README.etag})`
  })
  if (groups.length < 2) {
    checks.push({
      name: 'new bytes get a new ETag, with the first response that carries them',
      pass: null,
      sent,
      seen: 'the body never changed: the server was not started through core/launch.js, so its content could not be replaced',
      hint: ''
    })
    return { checks }
  }
  const shared = groups.slice(1).find((g) => groups.some((other) => other !== g && [...g.tags].some((tag) => tag !== undefined && other.tags.has(tag))))
  const lag = shared ? describeLag(shared, responses) : null
  checks.push({
    name: 'new bytes get a new ETag, with the first response that carries them',
    pass: !shared,
    sent,
    seen: lag ?? listing,
    hint: `the ETag belongs to the previous response's body: it is computed after sending, for the next response; name it from the content you are about to send, as fixed/ does (${README.etag})`
  })
  return { checks }
}

/**
 * Level 3: conditional GET, the checker's RFC 9110 steps with the real curl.
 */
async function checkConditional (server) {
  try {
    const { steps } = await checkConditionalGet(server.url)
    return {
      checks: steps.map((step) => ({
        name: step.name,
        pass: step.outcome === 'skip' ? null : step.outcome === 'pass',
        sent: abbreviate(step.sent),
        seen: abbreviate(step.outcome === 'skip' ? step.note : step.received),
        hint: step.broken.length > 0 ? `${abbreviate(step.broken.join('; '))} (${README.etag})` : ''
      }))
    }
  } catch (err) {
    if (!(err instanceof CannotCheckError)) throw err
    return {
      checks: [{
        name: 'conditional GET can be checked',
        pass: false,
        sent: `GET ${SEED_PATH} with curl`,
        seen: err.message,
        hint: `level 3 needs curl and a 200 with an ETag (${README.etag})`
      }]
    }
  }
}

// The early or late window: CPU per request, the cheapest of its chunks, and
// the 'after' listeners once it is done (null for a server the probe cannot
// see). Resolves to { cpuMicrosPerRequest, requests, listeners }.
async function measureWindow (server, load, { window, chunks }) {
  const perChunk = window / chunks
  const micros = []
  for (let i = 0; i < chunks; i++) {
    const before = await server.usage()
    await load(perChunk)
    const after = await server.usage()
    micros.push((after.cpuMillis - before.cpuMillis) * 1000 / perChunk)
  }
  const { afterListeners } = await server.sample()
  return { cpuMicrosPerRequest: Math.min(...micros), requests: window, spentMicros: micros.reduce((a, b) => a + b, 0) * perChunk, listeners: afterListeners }
}

// The same on a clock that moves in `step` µs: chunks that double, from a
// tenth of a window, until the window has cost COARSE_WINDOW_STEPS steps
// (or COARSE_WINDOW_MAX_REQUESTS requests were sent); CPU per request is
// then the whole window's, since no single chunk can be read.
async function measureWindowOnCoarseClock (server, load, { window, chunks }, step) {
  const minimum = COARSE_WINDOW_STEPS * (step ?? Infinity)
  const before = await server.usage()
  let requests = 0
  let spent = 0
  for (let chunk = window / chunks; spent < minimum && requests < COARSE_WINDOW_MAX_REQUESTS; chunk *= 2) {
    await load(chunk)
    requests += chunk
    spent = ((await server.usage()).cpuMillis - before.cpuMillis) * 1000
  }
  const { afterListeners } = await server.sample()
  return { cpuMicrosPerRequest: spent >= minimum ? spent / requests : 0, requests, spentMicros: spent, listeners: afterListeners }
}

// The most 'after' listeners the server held while `loading` ran.
async function whileLoading (server, loading) {
  const state = { done: false }
  loading.finally(() => { state.done = true }).catch(() => {})
  let most = 0
  while (!state.done) {
    const { afterListeners } = await server.sample()
    most = Math.max(most, afterListeners ?? 0)
  }
  await loading
  return most
}

function describeLag (group, responses) {
  const tag = [...group.tags].find((t) => responses.some((res, i) => i + 1 < group.first && res.headers.etag === t))
  const next = responses.findIndex((res, i) => i + 1 > group.first && res.body === group.body && res.headers.etag !== tag)
  const ownTag = next === -1 ? null : responses[next].headers.etag
  return `response ${group.first} brought new bytes with the tag the old bytes had (${abbreviate(tag)})` +
    (ownTag ? `, response ${next + 1} the same bytes with ${abbreviate(ownTag)}: the ETag lags one response behind its body` : '')
}

// A sha512 in hex is 128 characters: its first 16 tell tags apart on a line.
function abbreviate (text) {
  return text.replace(/[0-9a-f]{40,}/gi, (hex) => `${hex.slice(0, 16)}…`)
}

function describePerRequest (growth, requests) {
  const share = growth / requests
  if (Math.abs(share - 1) < 0.05) return 'one per request'
  return `${share.toFixed(2)} per request`
}

function formatMicros (micros) {
  return micros >= 1000 ? `${Math.round(micros).toLocaleString('en-US')} µs` : `${micros.toPrecision(3)} µs`
}

// `count` requests, `concurrency` at a time, over `agent`. Resolves when all
// are answered; rejects on a connection error.
async function sendRequests (url, count, { agent, concurrency }) {
  let started = 0
  async function client () {
    while (started < count) {
      started++
      await get(url, { agent })
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, client))
}

// One request; resolves to { status, headers, body } with the body a string.
function get (url, { method = 'GET', agent = false } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    req.end()
  })
}

module.exports = { checkContract, checkLeak, checkEtag, checkConditional, LEAK_PROTOCOL, FLAT_CPU_GROWTH, README }
