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
// 451 to 500 in the late one, and reads above this line on two cores, on
// one, beside npm run cpu-hog and under tap's coverage hooks; a server
// whose cost does not grow reads below it (its early window still warming
// up, some late chunks caught by a collection). The line sits near the
// geometric middle of the highest a flat server read and the lowest slow
// read, measured beside cpu-hog and under a whole npm test: as far, in
// ratio, from either (it stood higher once, and slow, its early window
// slowed by the tests beside it, read just under it).
const FLAT_CPU_GROWTH = 2
// A CPU clock that moves in steps this large or smaller reads a chunk of
// ten requests to a few per cent (a chunk of the one-line fix costs about a
// millisecond). Windows' moves in 15.6 ms ticks, where such a chunk reads 0
// or one tick: there a window is read at every chunk, its chunks doubling
// until one reads COARSE_CHUNK_STEPS steps, until it has cost
// COARSE_WINDOW_STEPS steps (at most 8 % error at its ends) as many times
// as COARSE_STRETCHES says, and CPU per request is its cheapest stretch of
// COARSE_WINDOW_STEPS steps, as a fine clock reads a window's cheapest
// chunk: three such in the early window, whose first requests are still
// warming up, so that its cheapest stretch can lie past them, two in the
// late one. The late window starts as many times later as the early one
// had to grow, so that a leak's growth shows as on a fine clock.
//
// Why the cheapest stretch and not the whole window: slow's early window
// is still its warm-up. A listener there cost up to about twice what it
// costs from request 150 on, the most beside npm run cpu-hog, where the
// compiler's and the collector's threads wait for a core. A fine clock's
// cheapest chunk leaves most of that out; a whole window, grown from
// request 51 until it had cost 12 steps, did not, and read slow's growth
// lower than the fine clock did, at times under FLAT_CPU_GROWTH (in CI
// too, under npm test's load); its cheapest stretches stay above it
// (docs/workshop.md, "Level 1 on a coarse CPU clock", has the method).
// Tested with a clock rounded down to 15.6 ms in
// test/workshop/verify-coarse-clock.test.js.
const FINE_CPU_CLOCK_MICROS = 50
const COARSE_WINDOW_STEPS = 12
const COARSE_STRETCHES = { early: 3, late: 2 }
const COARSE_CHUNK_STEPS = 3
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
// lateCount }, `early` and `late` as measureWindow's.
async function loadTwoWindows (server, load, protocol) {
  const clockStep = await server.cpuClockStepMicros()
  const fineClock = clockStep !== null && clockStep <= FINE_CPU_CLOCK_MICROS
  const measure = fineClock ? () => measureWindow(server, load, protocol) : (which) => measureWindowOnCoarseClock(server, load, protocol, clockStep, COARSE_STRETCHES[which])
  await load(protocol.warmup)
  const early = await measure('early')
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
  const late = await measure('late')
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
    : `the cheapest stretch of at least ${COARSE_WINDOW_STEPS} steps of its CPU clock in each, which moves by ${formatMicros(clockStep ?? 0)}`
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
      // Both windows' CPU, whole and where it was read, whichever way the
      // check goes: a leak read as flat (slow under the line on a coarse
      // clock, in CI) is a failure too, of verify's, and what to hold
      // against the fine clock's figures.
      seen: `${formatMicros(early.cpuMicrosPerRequest)} then ${formatMicros(late.cpuMicrosPerRequest)} per request (x${cpuGrowth.toFixed(2)}; flat is under x${FLAT_CPU_GROWTH}): ` +
        `${describeWindow(early, protocol.warmup)}; ${describeWindow(late, lateFrom)}`,
      hint: `each response costs more than the one before: something piles up per request (${readme})`
    },
    leaking: cpuGrowth >= FLAT_CPU_GROWTH
  }
}

// A window's CPU time in words: requests `from` + 1 on, all of them, then
// the part it was read on: "requests 51-100 took 150,000 µs of CPU,
// 91-100 22,400 µs of it".
function describeWindow ({ requests, spentMicros, cheapest }, from) {
  const range = (first, last) => `${from + first + 1}-${from + last}`
  return `requests ${range(0, requests)} took ${formatMicros(spentMicros)} of CPU, ${range(cheapest.from, cheapest.to)} ${formatMicros(cheapest.micros)} of it`
}

// The early or late window: CPU per request, the cheapest of its chunks, and
// the 'after' listeners once it is done (null for a server the probe cannot
// see). Resolves to { cpuMicrosPerRequest, requests, spentMicros,
// cheapest: { from, to, micros }, listeners }: the whole window's CPU time,
// and the requests (counted from the window's start) and CPU time of the
// part CPU per request was read on.
async function measureWindow (server, load, { window, chunks }) {
  const perChunk = window / chunks
  const spent = []
  for (let i = 0; i < chunks; i++) {
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

// The same on a clock that moves in `step` µs, where a chunk of ten
// requests reads 0 or a step: chunks from a tenth of a window, each twice
// the one before while they read under COARSE_CHUNK_STEPS steps, the clock
// read after each, until the window has cost `stretches` times
// COARSE_WINDOW_STEPS steps (or COARSE_WINDOW_MAX_REQUESTS requests were
// sent). CPU per request is then that of its cheapest stretch from one
// reading to a later one that cost COARSE_WINDOW_STEPS steps or more
// (0 when none did).
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

// Of `readings` ({ requests, micros }, in order), the stretch from one to
// a later one that cost `minimum` µs or more at the least CPU per request:
// { from, to, micros }, or null when no stretch cost that much.
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
