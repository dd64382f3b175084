'use strict'

// What the comparison measures and what it holds each mode to.

/**
 * The targets, each started in a fresh process through the launcher a user
 * runs (`node <entry>`). `conditional` targets are loaded with If-None-Match
 * set to the ETag the server currently sends. A `leaking` target's cost per
 * response grows with the responses it has served (slow: one more 'after'
 * listener each), so it is warmed up and measured by a count of requests,
 * not by seconds: every machine then measures it at the same listener
 * count, fast or slow.
 */
const TARGETS = {
  slow: { entry: 'slow', leaking: true, about: 'the case study as it was: one more after listener per request' },
  // The overload comparison is between these two, under the same time-based
  // load: how long clients wait once a server falls behind, with and without
  // shedding. (Measured by request counts, slow-protected sheds in one run
  // and not the next: a burst of 700 requests may never lag its loop 100 ms.)
  'slow-unprotected': {
    entry: 'slow',
    about: 'slow under the same time-based load as slow-protected: the overload comparison\'s baseline'
  },
  'slow-protected': {
    entry: 'slow',
    env: { OVERLOAD_MAX_DELAY_MS: '100' },
    about: 'slow with overload protection: 503 while the event loop lags > 100 ms'
  },
  fast: { entry: 'fast', about: 'the one-line fix: one listener, still hashing every body' },
  fixed: { entry: 'fixed', about: 'route-supplied ETag, body serialized once' },
  'fixed-304': { entry: 'fixed', conditional: true, about: 'fixed, every request If-None-Match with the current ETag' },
  'node-http': { entry: 'bench/references/node-http.js', about: 'plain node:http sending what fixed sends: the ceiling' },
  fastify: { entry: 'bench/references/fastify.js', about: 'fastify 5 + @fastify/etag + response schema: the peer' }
}

// The reference every CPU-per-request figure is divided by: it runs in the
// same rounds, so a faster or slower machine moves it and the target alike.
const REFERENCE = 'node-http'

/**
 * The ratios reported. `metric` is compared per round (median of the pairs);
 * `better` says which way is good. CPU-per-request ratios against the
 * reference are what a --baseline gates (see stats.js, compareWithBaseline).
 */
const RATIOS = [
  { name: 'fast/slow', of: 'fast', over: 'slow', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'fixed/fast', of: 'fixed', over: 'fast', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'fixed/node-http', of: 'fixed', over: 'node-http', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'fixed-304/node-http', of: 'fixed-304', over: 'node-http', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'fixed/fastify', of: 'fixed', over: 'fastify', metric: 'requestsPerSecond', better: 'higher' },
  // No goal: how far apart the ceiling and the peer are in this run. When it
  // is near 2, load-generator contention caps fixed/fastify there too.
  { name: 'node-http/fastify', of: 'node-http', over: 'fastify', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'cpu fixed/node-http', of: 'fixed', over: 'node-http', metric: 'cpuMicrosPerRequest', better: 'lower' },
  { name: 'cpu fixed/fastify', of: 'fixed', over: 'fastify', metric: 'cpuMicrosPerRequest', better: 'lower' },
  { name: 'p99 slow-unprotected/slow-protected', of: 'slow-unprotected', over: 'slow-protected', metric: 'latencyP99', better: 'higher' }
]

/**
 * The ratios of a user's own target NAME (--target NAME=PATH): its
 * throughput and its CPU per request against the reference.
 */
function userRatios (name) {
  return [
    { name: `${name}/${REFERENCE}`, of: name, over: REFERENCE, metric: 'requestsPerSecond', better: 'higher' },
    { name: `cpu ${name}/${REFERENCE}`, of: name, over: REFERENCE, metric: 'cpuMicrosPerRequest', better: 'lower' }
  ]
}

// Set from runs on Node 24 (README, "Reading the ratios", says which).
// Throughput goals between targets near the ceiling stay loose: there, two
// shared cores make autocannon the bottleneck as often as the server. The
// tight claims are made on CPU per request, which autocannon does not touch.
const FULL_GOALS = {
  'fast/slow': 200,
  'fixed/fast': 3,
  'fixed/node-http': 0.75,
  'fixed-304/node-http': 0.9,
  'cpu fixed/node-http': 1.35,
  'cpu fixed/fastify': 0.6,
  'p99 slow-unprotected/slow-protected': 2
}

/**
 * Per mode: the protocol defaults, the ratio goals, the targets that must
 * see no errors (and no timeouts), those that must shed load with 503s, and
 * whether falling short fails the run. In the protocol, `warmup` and
 * `duration` are seconds; `warmupRequests` and `requests` are what a
 * leaking target gets instead.
 */
const FULL_CHECKS = {
  goals: FULL_GOALS,
  errorFree: ['fast', 'fixed', 'fixed-304'],
  timeoutFree: ['fast', 'fixed', 'fixed-304', 'slow-protected'],
  shedding: ['slow-protected']
}

const MODES = {
  start: {
    protocol: { targets: Object.keys(TARGETS), connections: 100, warmup: 2, duration: 5, warmupRequests: 500, requests: 200, rounds: 2 },
    ...FULL_CHECKS,
    enforce: false
  },
  full: {
    protocol: { targets: Object.keys(TARGETS), connections: 100, warmup: 3, duration: 10, warmupRequests: 500, requests: 200, rounds: 3 },
    ...FULL_CHECKS,
    enforce: true
  },
  ci: {
    protocol: { targets: ['slow', 'fast', 'fixed', 'fixed-304', REFERENCE], connections: 100, warmup: 0.5, duration: 1.5, warmupRequests: 200, requests: 100, rounds: 7 },
    goals: { 'fast/slow': 50, 'fixed/fast': 2 },
    errorFree: ['fast', 'fixed', 'fixed-304'],
    timeoutFree: [],
    shedding: [],
    enforce: true
  }
}

// The conditional target's ETag must hold for the whole run: fixed's minute
// clock starts with the process, so warm-up plus duration stays under this.
const MAX_CONDITIONAL_SECONDS = 55

module.exports = { TARGETS, REFERENCE, RATIOS, userRatios, MODES, MAX_CONDITIONAL_SECONDS }
