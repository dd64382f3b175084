'use strict'

// What can be measured: every target, and how each is started. Plain data,
// read by the commands' options, the measuring and the judging alike.

const { STORY_REQUEST_HEADERS } = require('./story-headers')

/**
 * The targets, each started in a fresh process through the launcher a user
 * runs (`node <entry>`). `conditional` targets are loaded with If-None-Match
 * set to the ETag the server currently sends. A `leaking` target's cost per
 * response grows with the responses it has served (slow: one more 'after'
 * listener each), so it is warmed up and measured by a count of requests,
 * not by seconds: every machine then measures it at the same listener
 * count, fast or slow.
 */
const CASE_STUDY = {
  slow: { entry: 'slow', leaking: true, about: 'the case study as it was: one more after listener per request' },
  // The overload comparison is between these two, under the same time-based
  // load: how long clients wait once a server falls behind, with and without
  // shedding. (Measured by request counts, slow-protected sheds in one run
  // and not the next: a short burst may end before its loop lags 100 ms.)
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
 * target with a file as its stdout (tooling/target-process.js says which kinds);
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

// The case study's targets, what npm start and npm run bench measure.
const CASE_STUDY_TARGETS = Object.keys(CASE_STUDY)

// Every target by name.
const TARGETS = { ...CASE_STUDY, ...STORY_TARGETS, ...NAMED_ONLY_TARGETS }

// The conditional target's ETag must hold for the whole run: fixed's minute
// clock starts with the process, so warm-up plus duration stays under this.
const MAX_CONDITIONAL_SECONDS = 55

module.exports = { TARGETS, CASE_STUDY_TARGETS, MAX_CONDITIONAL_SECONDS }
