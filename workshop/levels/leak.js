'use strict'

// verify's level 1: the leak is gone. 'after' listeners and CPU per request
// stay flat as requests accumulate and while many are in flight. The server
// is one tooling/target-process.js started (its probe answers usage, sample
// and cpu-clock).

const http = require('node:http')
const { SEED_PATH } = require('../../core/seed-contract')
const { sendRequests } = require('./http')

const title = 'Level 1: the leak is gone'
const usage = [
  "the leak: 'after' listeners (for servers started through",
  'core/launch.js) and CPU per request stay flat as requests',
  'accumulate (500, ten at a time) and while many are in flight'
]
// Where its hints send the participant: a heading of the README.
const readme = 'README, "5. Fix the leak in your copy"'

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
// clock rounded down to 15.6 ms in test/workshop/verify-coarse-clock.test.js.
const FINE_CPU_CLOCK_MICROS = 50
const COARSE_WINDOW_STEPS = 12
// A server so cheap that even this many requests cost fewer steps is not
// measured on such a clock (the check says so).
const COARSE_WINDOW_MAX_REQUESTS = 20000

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
    const run = await loadTwoWindows(server, load, protocol)
    const cpu = cpuCheck(run, protocol)
    return { checks: [listenersCheck(run, protocol), cpu.check], leaking: cpu.leaking }
  } finally {
    agent.destroy()
  }
}

// The warm-up, the early window, requests in flight while the listeners
// are counted, then the late window. Resolves to what the checks read:
// { clockStep, fineClock, early, late, inFlight, earlyCount, lateFrom,
// lateCount }.
async function loadTwoWindows (server, load, protocol) {
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
  return { clockStep, fineClock, early, late, inFlight, earlyCount, lateFrom, lateCount: lateFrom + late.requests }
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

// CPU per request, late over early. Returns { check, leaking }.
function cpuCheck ({ clockStep, fineClock, early, late, earlyCount, lateFrom, lateCount }, protocol) {
  const windows = `requests ${protocol.warmup + 1}-${earlyCount} and ${lateFrom + 1}-${lateCount}`
  const how = fineClock
    ? `the cheapest of ${protocol.chunks} chunks of each`
    : `each at least ${COARSE_WINDOW_STEPS} steps of its CPU clock, which moves by ${formatMicros(clockStep ?? 0)}`
  const sent = `the same ${lateCount} requests; the server's CPU time over ${windows}, ${how}`
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
      seen: `${formatMicros(early.cpuMicrosPerRequest)} then ${formatMicros(late.cpuMicrosPerRequest)} per request (x${cpuGrowth.toFixed(2)}; flat is under x${FLAT_CPU_GROWTH})`,
      hint: `each response costs more than the one before: something piles up per request (${readme})`
    },
    leaking: cpuGrowth >= FLAT_CPU_GROWTH
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

function describePerRequest (growth, requests) {
  const share = growth / requests
  if (Math.abs(share - 1) < 0.05) return 'one per request'
  return `${share.toFixed(2)} per request`
}

function formatMicros (micros) {
  return micros >= 1000 ? `${Math.round(micros).toLocaleString('en-US')} µs` : `${micros.toPrecision(3)} µs`
}

module.exports = { title, usage, readme, check: checkLeak, checkLeak, LEAK_PROTOCOL, FLAT_CPU_GROWTH }
