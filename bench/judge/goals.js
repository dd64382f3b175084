'use strict'

// What the comparison measures and what it holds each mode to.

const os = require('node:os')
const { STORY_REQUEST_HEADERS } = require('../../tooling/repo')

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

/**
 * The four stories beside the case study (stories/, docs/stories.md, "Four more
 * expensive lines"), each a pair, each its own mode. `stdout` starts the
 * target with a file as its stdout (target-process.js says which kinds);
 * `headers` go with every request;
 * `processTree` targets are several processes, whose CPU time and peak
 * memory are summed from /proc.
 */
const STORY_TARGETS = {
  'logging-slow': { entry: 'stories/logging/slow.js', stdout: 'synchronous-file', about: 'console.log per request into a file on a slow disk (O_DSYNC): each line waits for it' },
  'logging-fixed': { entry: 'stories/logging/fixed.js', stdout: 'synchronous-file', about: 'pino, asynchronous, one write per 4 KiB, into the same slow file' },
  'logging-slow-file': { entry: 'stories/logging/slow.js', stdout: 'file', about: 'console.log per request into an ordinary file: written synchronously, to the page cache' },
  'logging-slow-piped': { entry: 'stories/logging/slow.js', about: 'console.log per request into a pipe: written asynchronously' },
  'logging-fixed-file': { entry: 'stories/logging/fixed.js', stdout: 'file', about: 'pino into an ordinary file: what its own work costs where writing is cheap' },
  'crypto-slow': { entry: 'stories/crypto/slow.js', headers: STORY_REQUEST_HEADERS['stories/crypto/slow.js'], about: 'pbkdf2Sync in the auth middleware, every request' },
  'crypto-fixed': { entry: 'stories/crypto/fixed.js', headers: STORY_REQUEST_HEADERS['stories/crypto/fixed.js'], about: 'the key derived once per credential, off the event loop, cached' },
  'backend-slow': { entry: 'stories/backend/slow.js', processTree: true, about: 'a new connection to the backend process per request' },
  'backend-pooled': { entry: 'stories/backend/fixed.js', env: { CONTENT_CACHE_TTL_MS: '0' }, processTree: true, about: 'a pool of 10 kept-alive connections, no cache' },
  'backend-fixed': { entry: 'stories/backend/fixed.js', processTree: true, about: 'the pool and a 1 s cache of the content' },
  cluster: { entry: 'stories/cluster', processTree: true, about: 'fixed as one worker per core behind node:cluster' }
}

/**
 * Run only when named (--targets): a bare restify route sending fixed's
 * bytes, the ceiling for a restify server, which splits fixed's distance to
 * node-http into restify's share and fixed's own (docs/benchmark.md, "How
 * far fixed is from the ceiling").
 */
const NAMED_ONLY_TARGETS = {
  restify: { entry: 'bench/references/restify.js', about: 'a bare restify route sending fixed\'s bytes and headers, built once: the ceiling for restify' }
}

const CASE_STUDY_TARGETS = Object.keys(TARGETS)
Object.assign(TARGETS, STORY_TARGETS, NAMED_ONLY_TARGETS)

// The reference every CPU-per-request figure is divided by: it runs in the
// same rounds, so a faster or slower machine moves it and the target alike.
const REFERENCE = 'node-http'

/**
 * The ratios reported. `metric` is compared per round (median of the pairs);
 * `better` says which way is good. CPU-per-request ratios against the
 * reference, and only those, are what a --baseline gates (stats.js,
 * compareWithBaseline).
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
  // The same two steps in what one response costs the server, which the
  // load generator's share of the cores does not move (a throughput ratio
  // measures that share as much as the servers). Written the way round the
  // story tells it, the cost before over the cost after: higher is the
  // bigger gain. slow is measured at the same listener count on every
  // machine (TARGETS, `leaking`), so this is the case study's ~200x.
  { name: 'cpu slow/fast', of: 'slow', over: 'fast', metric: 'cpuMicrosPerRequest', better: 'higher' },
  { name: 'cpu fast/fixed', of: 'fast', over: 'fixed', metric: 'cpuMicrosPerRequest', better: 'higher' },
  { name: 'cpu fixed/node-http', of: 'fixed', over: 'node-http', metric: 'cpuMicrosPerRequest', better: 'lower' },
  { name: 'cpu fixed/fastify', of: 'fixed', over: 'fastify', metric: 'cpuMicrosPerRequest', better: 'lower' },
  // No goals: where fixed's distance to the ceiling goes, restify's share
  // (restify over node-http) and fixed's own (fixed over restify).
  { name: 'restify/node-http', of: 'restify', over: 'node-http', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'cpu restify/node-http', of: 'restify', over: 'node-http', metric: 'cpuMicrosPerRequest', better: 'lower' },
  { name: 'cpu fixed/restify', of: 'fixed', over: 'restify', metric: 'cpuMicrosPerRequest', better: 'lower' },
  { name: 'p99 slow-unprotected/slow-protected', of: 'slow-unprotected', over: 'slow-protected', metric: 'latencyP99', better: 'higher' },
  // The stories': the fix's throughput over the line's, and its CPU per
  // request as a share of the line's.
  { name: 'logging-fixed/logging-slow', of: 'logging-fixed', over: 'logging-slow', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'cpu logging-slow/logging-fixed', of: 'logging-slow', over: 'logging-fixed', metric: 'cpuMicrosPerRequest', better: 'higher' },
  { name: 'logging-slow-file/logging-slow', of: 'logging-slow-file', over: 'logging-slow', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'logging-slow-piped/logging-slow', of: 'logging-slow-piped', over: 'logging-slow', metric: 'requestsPerSecond', better: 'higher' },
  // Where the destination is fast, pino against console.log.
  { name: 'logging-fixed-file/logging-slow-file', of: 'logging-fixed-file', over: 'logging-slow-file', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'cpu logging-fixed-file/logging-slow-file', of: 'logging-fixed-file', over: 'logging-slow-file', metric: 'cpuMicrosPerRequest', better: 'lower' },
  { name: 'crypto-fixed/crypto-slow', of: 'crypto-fixed', over: 'crypto-slow', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'cpu crypto-slow/crypto-fixed', of: 'crypto-slow', over: 'crypto-fixed', metric: 'cpuMicrosPerRequest', better: 'higher' },
  { name: 'backend-pooled/backend-slow', of: 'backend-pooled', over: 'backend-slow', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'backend-fixed/backend-pooled', of: 'backend-fixed', over: 'backend-pooled', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'backend-fixed/backend-slow', of: 'backend-fixed', over: 'backend-slow', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'cpu backend-fixed/backend-slow', of: 'backend-fixed', over: 'backend-slow', metric: 'cpuMicrosPerRequest', better: 'lower' },
  { name: 'cpu backend-pooled/backend-slow', of: 'backend-pooled', over: 'backend-slow', metric: 'cpuMicrosPerRequest', better: 'lower' },
  { name: 'cpu backend-fixed/backend-pooled', of: 'backend-fixed', over: 'backend-pooled', metric: 'cpuMicrosPerRequest', better: 'lower' },
  // The story's point: with the pool and the cache, the story's server costs
  // what the case study's fixed costs, the backend no longer in the way.
  // Reported, not enforced: under `npm run cpu-hog` its rounds' pairs spread
  // from 0.94 to 1.57 here (docs/stories.md), too wide for a goal near 1.
  { name: 'cpu backend-fixed/fixed', of: 'backend-fixed', over: 'fixed', metric: 'cpuMicrosPerRequest', better: 'lower' },
  // One process over the cluster: on a machine whose cores the load
  // generator shares, the story's claim is that this stays near 1.
  { name: 'fixed/cluster', of: 'fixed', over: 'cluster', metric: 'requestsPerSecond', better: 'higher' },
  { name: 'cpu cluster/fixed', of: 'cluster', over: 'fixed', metric: 'cpuMicrosPerRequest', better: 'lower' }
]

/**
 * The ratios of a user's own target NAME (--target NAME=PATH): its
 * throughput and its CPU per request against the reference, and against
 * fast and fixed, the case study's two fixes (a workshop participant's
 * copy is measured against those). A ratio whose other target is not in
 * the run is left out when the ratios are evaluated.
 */
function userRatios (name) {
  return [REFERENCE, 'fast', 'fixed'].flatMap((over) => [
    { name: `${name}/${over}`, of: name, over, metric: 'requestsPerSecond', better: 'higher' },
    { name: `cpu ${name}/${over}`, of: name, over, metric: 'cpuMicrosPerRequest', better: 'lower' }
  ])
}

// Every enforced goal is on CPU per request, or on a figure that held as
// well, and clears its worst run by 10 % or more in three conditions: two
// cores, one core (`taskset -c 0`) and beside `npm run cpu-hog`
// (docs/benchmark.md, "Goals on any machine", has the runs, and the Intel
// Xeon's earlier figures where they measured the same ratio). The
// throughput ratios stay in the table, what a user sees, without goals: on
// shared cores they measure the load generator's share of the CPU as much
// as the servers.
const FULL_GOALS = {
  'cpu slow/fast': 100,
  'cpu fast/fixed': 2,
  'cpu fixed/node-http': 1.75,
  'cpu fixed/fastify': 0.7,
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
    protocol: { targets: CASE_STUDY_TARGETS, connections: 100, warmup: 2, duration: 5, warmupRequests: 500, requests: 200, rounds: 2 },
    ...FULL_CHECKS,
    enforce: false
  },
  full: {
    protocol: { targets: CASE_STUDY_TARGETS, connections: 100, warmup: 3, duration: 10, warmupRequests: 500, requests: 200, rounds: 3 },
    ...FULL_CHECKS,
    enforce: true
  },
  ci: {
    protocol: { targets: ['slow', 'fast', 'fixed', 'fixed-304', REFERENCE], connections: 100, warmup: 0.5, duration: 1.5, warmupRequests: 200, requests: 100, rounds: 7 },
    goals: { 'cpu slow/fast': 50, 'cpu fast/fixed': 2 },
    errorFree: ['fast', 'fixed', 'fixed-304'],
    timeoutFree: [],
    shedding: [],
    enforce: true
  },
  // Each story's goals, held as FULL_GOALS are, from the same runs.
  ...storyModes({
    // Throughput: the slow line's cost is waiting on the disk, which CPU
    // per request does not see.
    logging: {
      targets: ['logging-slow', 'logging-fixed', 'logging-slow-file', 'logging-fixed-file', 'logging-slow-piped'],
      goals: { 'logging-fixed/logging-slow': 2.5 }
    },
    crypto: { targets: ['crypto-slow', 'crypto-fixed'], goals: { 'cpu crypto-slow/crypto-fixed': 60 } },
    backend: {
      targets: ['backend-slow', 'backend-pooled', 'backend-fixed', 'fixed'],
      goals: { 'cpu backend-pooled/backend-slow': 0.65, 'cpu backend-fixed/backend-pooled': 0.3, 'cpu backend-fixed/backend-slow': 0.15 }
    },
    // Where autocannon and the server share two cores, a second process has
    // no idle core to use: the cluster serves about what one process serves.
    // Held as "one process serves at least 85 % of what the cluster serves",
    // far from what a second worker with a core of its own would give (near
    // 0.5): two near-equal servers' rounds differ by 30 % here, and the runs'
    // ratios read 0.94 to 1.27 on AMD EPYC, 1.10 to 1.16 on Intel Xeon. Its
    // CPU per request is reported. With more cores the cluster may well
    // serve more, and with one (`taskset -c 0`) the cluster is one worker,
    // fixed itself: nothing is claimed.
    cluster: { targets: ['fixed', 'cluster'], goals: os.availableParallelism() === 2 ? { 'fixed/cluster': 0.85 } : {} }
  })
}

// A story's mode: its targets under the start protocol's load, three
// rounds, every target error-free, its goals enforced.
function storyModes (stories) {
  return Object.fromEntries(Object.entries(stories).map(([name, { targets, goals }]) => [name, {
    protocol: { targets, connections: 100, warmup: 2, duration: 5, warmupRequests: 0, requests: 1, rounds: 3 },
    goals,
    errorFree: targets,
    timeoutFree: targets,
    shedding: [],
    enforce: true
  }]))
}

// The conditional target's ETag must hold for the whole run: fixed's minute
// clock starts with the process, so warm-up plus duration stays under this.
const MAX_CONDITIONAL_SECONDS = 55

module.exports = { TARGETS, REFERENCE, RATIOS, userRatios, MODES, MAX_CONDITIONAL_SECONDS }
