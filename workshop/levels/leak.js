'use strict'

// verify's level 1: the leak is gone. 'after' listeners and CPU per request stay flat as requests accumulate
// and while many are in flight (the probe of tooling/target-process.js counts and clocks them).

const http = require('node:http')
const { SEED_PATH } = require('../../core/seed-contract')
const { sendRequests } = require('./http')
const { formatMicros } = require('./micros')

const title = 'Level 1: the leak is gone'
const usage = [
  "the leak: 'after' listeners (for servers started through",
  'core/launch.js) and CPU per request stay flat as requests',
  'accumulate (500, ten at a time) and while many are in flight'
]
const readme = 'README, "5. Fix the leak in your copy"'
const failing = 'The leak is still there: level 1 fails.'
const held = 'Your fix holds the leak.'

// By request counts, as the bench measures slow, so that every machine meets a leak at the same listener count.
// Each window reads as its cheapest chunk: a leak makes every late chunk dearer, a collection or a compile only some.
// The chunks stand apart in time, so that a cost paid once (a compile on V8's threads, a busy neighbour) falls on
// one chunk, not on a window; a late window that reads a leak is read again after it, on either clock, and the
// cheaper read kept: a leak only grows, a burst passes.
const LEAK_PROTOCOL = {
  concurrency: 10,
  warmup: 50, // requests 1-50
  window: 50, // early: requests 51-100; late: requests 451-500 (and 501-550, read again)
  lateFrom: 450,
  chunks: 5,
  chunkGapMs: 50
}
// Late over early CPU per request from this on is growth: slow's leak reads above it, a flat server below
// (above 1 at times, its early window still warming up); the line sits about as far, in ratio, from either.
const FLAT_CPU_GROWTH = 2
// A clock that moves in steps this fine reads a chunk of ten requests. On a coarser one (Windows') a window grows
// until it holds COARSE_STRETCHES stretches of COARSE_WINDOW_STEPS steps and reads as the cheapest, which lies
// past the warm-up (docs/verify.md, "Level 1 on a coarse CPU clock").
const FINE_CPU_CLOCK_MICROS = 50
const COARSE_WINDOW_STEPS = 12
const COARSE_STRETCHES = { early: 3, late: 2 }
const COARSE_CHUNK_STEPS = 3
// A server so cheap that even this many requests cost fewer steps is not measured on such a clock.
const COARSE_WINDOW_MAX_REQUESTS = 20000

// Resolves to { checks, leaking }: a server whose cost grew is measured by counts in the speed comparison, as slow.
async function checkLeak (server, { protocol = LEAK_PROTOCOL } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: protocol.concurrency })
  try {
    const load = (count) => sendRequests(server.url, count, { agent, concurrency: protocol.concurrency })
    const run = await loadTwoWindows(server, load, protocol)
    const cpu = cpuCheck(run, protocol)
    return { checks: [listenersCheck(run, protocol), cpu.check], leaking: cpu.leaking }
  } finally {
    agent.destroy()
  }
}

async function loadTwoWindows (server, load, protocol) {
  const clockStep = await server.cpuClockStepMicros()
  const fineClock = clockStep !== null && clockStep <= FINE_CPU_CLOCK_MICROS
  const measure = fineClock ? () => measureWindow(server, load, protocol) : (which) => measureWindowOnCoarseClock(server, load, protocol, clockStep, COARSE_STRETCHES[which])
  await load(protocol.warmup)
  const early = await measure('early')
  const earlyCount = protocol.warmup + early.requests
  // Never under 1: a server that fills its early window in fewer requests than a window would be read earlier in its leak.
  const stretch = Math.max(1, earlyCount / (protocol.warmup + protocol.window))
  const lateFrom = Math.round(protocol.lateFrom * stretch)
  // Listeners counted while requests are in flight; then a window's worth unmeasured, so that the late
  // window does not pay for the sampling (its messages and their garbage).
  const inFlight = await whileLoading(server, load(lateFrom - earlyCount - early.requests))
  await load(early.requests)
  const late = await measure('late')
  // On either clock: a burst over a coarse clock's stretch reads as a leak as it does over a fine clock's chunks.
  const readTwice = early.cpuMicrosPerRequest > 0 && late.cpuMicrosPerRequest >= FLAT_CPU_GROWTH * early.cpuMicrosPerRequest
  const lateCpu = readTwice ? readAgain(late, await measure('late')) : late
  return { clockStep, fineClock, early, late, lateCpu, readTwice, inFlight, earlyCount, lateFrom, lateCount: lateFrom + late.requests }
}

// Two windows read one after the other as one, its cheapest chunk the cheaper.
function readAgain (first, second) {
  const cheaper = second.cpuMicrosPerRequest < first.cpuMicrosPerRequest
  const offset = (chunk) => ({ ...chunk, from: chunk.from + first.requests, to: chunk.to + first.requests })
  return {
    cpuMicrosPerRequest: Math.min(first.cpuMicrosPerRequest, second.cpuMicrosPerRequest),
    requests: first.requests + second.requests,
    spentMicros: first.spentMicros + second.spentMicros,
    cheapest: cheaper ? offset(second.cheapest) : first.cheapest
  }
}

function listenersCheck ({ early, late, inFlight, earlyCount, lateCount }, protocol) {
  const counted = early.listeners !== null
  const growth = counted ? late.listeners - early.listeners : null
  const most = counted ? Math.max(early.listeners, late.listeners, inFlight) : null
  return {
    name: "'after' listeners: at most one, however many requests came and are in flight",
    pass: counted ? growth === 0 && most <= 1 : null,
    sent: `${lateCount} GET ${SEED_PATH}, ${protocol.concurrency} at a time`,
    seen: counted
      ? `${early.listeners} after ${earlyCount} requests, ${late.listeners} after ${lateCount}, up to ${inFlight} while ${protocol.concurrency} were in flight` +
        (growth > 0 ? `: ${growth} more in ${lateCount - earlyCount} requests, ${describePerRequest(growth, lateCount - earlyCount)}` : '')
      : 'not counted: the server was not started through core/launch.js, whose server the probe can see',
    hint: growth > 0
      ? `one more listener per request: the guard in etag.js decides whether one is added (${readme})`
      : `a listener per request in flight (server.once removes it again, but every response runs all of them): add the one listener once (${readme})`
  }
}

function cpuCheck ({ clockStep, fineClock, early, late: firstRead, lateCpu: late, readTwice, earlyCount, lateFrom }, protocol) {
  const lateCount = lateFrom + late.requests
  const windows = `requests ${protocol.warmup + 1}-${earlyCount} and ${lateFrom + 1}-${lateCount}`
  const how = (fineClock
    ? `each window read as the cheapest of its ${protocol.chunks} chunks, taken ${protocol.chunkGapMs} ms apart`
    : `the cheapest stretch of at least ${COARSE_WINDOW_STEPS} steps of its CPU clock in each, which moves by ${formatMicros(clockStep ?? 0)}`) +
    (readTwice ? ' (the late one read twice, as it read a leak)' : '')
  const sent = `${readTwice ? `those and ${late.requests - firstRead.requests} more` : `the same ${lateCount}`} requests; the server's CPU time over ${windows}, ${how}`
  if (!(early.cpuMicrosPerRequest > 0) || !(late.cpuMicrosPerRequest > 0)) {
    return {
      check: {
        name: 'CPU per request stays flat as requests accumulate',
        pass: null,
        sent,
        seen: `not measured: the server's CPU clock ${clockStep === null ? 'did not move' : `moves by ${formatMicros(clockStep)}`}, ` +
          `and its windows of ${early.requests.toLocaleString('en-US')} and ${late.requests.toLocaleString('en-US')} requests read ${formatMicros(early.spentMicros)} and ${formatMicros(late.spentMicros)}`
      },
      leaking: false
    }
  }
  const cpuGrowth = late.cpuMicrosPerRequest / early.cpuMicrosPerRequest
  return {
    check: {
      name: 'CPU per request stays flat as requests accumulate',
      pass: cpuGrowth < FLAT_CPU_GROWTH,
      sent,
      seen: `${formatMicros(early.cpuMicrosPerRequest)} then ${formatMicros(late.cpuMicrosPerRequest)} per request (x${cpuGrowth.toFixed(2)}; flat is under x${FLAT_CPU_GROWTH}): ` +
        `${describeWindow(early, protocol.warmup)}; ${describeWindow(late, lateFrom)}`,
      hint: `each response costs more than the one before: something piles up per request (${readme})`
    },
    leaking: cpuGrowth >= FLAT_CPU_GROWTH
  }
}

function describeWindow ({ requests, spentMicros, cheapest }, from) {
  const range = (first, last) => `${from + first + 1}-${from + last}`
  return `requests ${range(0, requests)} took ${formatMicros(spentMicros)} of CPU, ${range(cheapest.from, cheapest.to)} ${formatMicros(cheapest.micros)} of it`
}

// A window read as its cheapest chunk, and the 'after' listeners after it (null where the probe cannot see).
async function measureWindow (server, load, { window, chunks, chunkGapMs }) {
  const perChunk = window / chunks
  const spent = []
  for (let i = 0; i < chunks; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, chunkGapMs))
    const before = await server.usage()
    await load(perChunk)
    const after = await server.usage()
    spent.push((after.cpuMillis - before.cpuMillis) * 1000)
  }
  const { afterListeners } = await server.sample()
  const cheapestChunk = spent.indexOf(Math.min(...spent))
  return {
    cpuMicrosPerRequest: spent[cheapestChunk] / perChunk,
    requests: window,
    spentMicros: spent.reduce((a, b) => a + b, 0),
    cheapest: { from: cheapestChunk * perChunk, to: (cheapestChunk + 1) * perChunk, micros: spent[cheapestChunk] },
    listeners: afterListeners
  }
}

// The same on a clock of `step` µs: chunks doubling while under COARSE_CHUNK_STEPS steps, read as its cheapest stretch.
async function measureWindowOnCoarseClock (server, load, { window, chunks }, step, stretches) {
  const minimum = COARSE_WINDOW_STEPS * (step ?? Infinity)
  const readings = [{ requests: 0, micros: (await server.usage()).cpuMillis * 1000 }]
  const spent = () => readings.at(-1).micros - readings[0].micros
  for (let chunk = window / chunks; spent() < stretches * minimum && readings.at(-1).requests < COARSE_WINDOW_MAX_REQUESTS;) {
    await load(chunk)
    const micros = (await server.usage()).cpuMillis * 1000
    const last = readings.at(-1)
    readings.push({ requests: last.requests + chunk, micros })
    if (micros - last.micros < COARSE_CHUNK_STEPS * (step ?? Infinity)) chunk *= 2
  }
  const { afterListeners } = await server.sample()
  const cheapest = cheapestStretch(readings, minimum)
  return {
    cpuMicrosPerRequest: cheapest ? cheapest.micros / (cheapest.to - cheapest.from) : 0,
    requests: readings.at(-1).requests,
    spentMicros: spent(),
    cheapest: cheapest ?? { from: 0, to: readings.at(-1).requests, micros: spent() },
    listeners: afterListeners
  }
}

function cheapestStretch (readings, minimum) {
  let cheapest = null
  for (const [i, first] of readings.entries()) {
    for (const last of readings.slice(i + 1)) {
      const micros = last.micros - first.micros
      const perRequest = micros / (last.requests - first.requests)
      if (micros >= minimum && (cheapest === null || perRequest < cheapest.perRequest)) cheapest = { from: first.requests, to: last.requests, micros, perRequest }
    }
  }
  return cheapest && { from: cheapest.from, to: cheapest.to, micros: cheapest.micros }
}

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

function describePerRequest (growth, requests) {
  const share = growth / requests
  if (Math.abs(share - 1) < 0.05) return 'one per request'
  return `${share.toFixed(2)} per request`
}

module.exports = { title, usage, readme, failing, held, check: checkLeak, checkLeak, LEAK_PROTOCOL, FLAT_CPU_GROWTH }
