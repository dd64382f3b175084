'use strict'

// The catalogue of targets: every server the tools measure, one row each, and the one place their names are
// listed. Adding a variant: its folder, one row here, and its goals in bench/judge/goals.js.

const { STORY_REQUEST_HEADERS } = require('./story-headers')

// A row: name; kind; entry; run settings (bench/measure/ reads them); about; and sets, each list it is in,
// `true` for the catalogue's order or its place in the list's own. A `leaking` target is run by request
// count, so every machine measures it at the same listener count. `restify` runs only when named.
const CATALOGUE = [
  { name: 'slow', kind: 'variant', entry: 'slow', leaking: true, sets: { start: true, ci: true, speed: true, speedLine: 3, caseStudy: 1 }, about: 'the case study as it was: one more after listener per request' },
  { name: 'slow-unprotected', kind: 'variant', entry: 'slow', sets: { start: true }, about: 'slow under the same time-based load as slow-protected: the overload comparison\'s baseline' },
  { name: 'slow-protected', kind: 'variant', entry: 'slow', env: { OVERLOAD_MAX_DELAY_MS: '100' }, sets: { start: true, timeoutFree: true, shedding: true }, about: 'slow with overload protection: 503 while the event loop lags > 100 ms' },
  { name: 'fast', kind: 'variant', entry: 'fast', sets: { start: true, ci: true, errorFree: true, timeoutFree: true, user: 2, counted: 1, compare: 3, speed: true, speedLine: 1, speedBetween: 2, caseStudy: 2 }, about: 'the one-line fix: one listener, still hashing every body' },
  { name: 'fixed', kind: 'variant', entry: 'fixed', sets: { start: true, ci: true, errorFree: true, timeoutFree: true, backend: 4, cluster: true, user: 3, counted: 2, compare: 1, calibrate: true, speed: true, speedLine: 2, speedBetween: 1, caseStudy: 3 }, about: 'route-supplied ETag, body serialized once' },
  { name: 'fixed-304', kind: 'variant', entry: 'fixed', conditional: true, sets: { start: true, ci: true, errorFree: true, timeoutFree: true, counted: 3, compare: 2 }, about: 'fixed, every request If-None-Match with the current ETag' },
  { name: 'node-http', kind: 'reference', entry: 'bench/references/node-http.js', sets: { start: true, ci: true, reference: true, user: 1 }, about: 'plain node:http sending what fixed sends: the ceiling' },
  { name: 'fastify', kind: 'reference', entry: 'bench/references/fastify.js', sets: { start: true }, about: 'fastify 5 + @fastify/etag + response schema: the peer' },

  { name: 'logging-slow', kind: 'story', entry: 'stories/logging/slow.js', stdout: 'synchronous-file', sets: { logging: 1 }, about: 'console.log per request into a file on a slow disk (O_DSYNC): each line waits for it' },
  { name: 'logging-fixed', kind: 'story', entry: 'stories/logging/fixed.js', stdout: 'synchronous-file', sets: { logging: 2 }, about: 'pino, asynchronous, one write per 4 KiB, into the same slow file' },
  { name: 'logging-slow-file', kind: 'story', entry: 'stories/logging/slow.js', stdout: 'file', sets: { logging: 3 }, about: 'console.log per request into an ordinary file: written synchronously, to the page cache' },
  { name: 'logging-slow-piped', kind: 'story', entry: 'stories/logging/slow.js', sets: { logging: 5 }, about: 'console.log per request into a pipe: written asynchronously' },
  { name: 'logging-fixed-file', kind: 'story', entry: 'stories/logging/fixed.js', stdout: 'file', sets: { logging: 4 }, about: 'pino into an ordinary file: what its own work costs where writing is cheap' },
  { name: 'crypto-slow', kind: 'story', entry: 'stories/crypto/slow.js', headers: STORY_REQUEST_HEADERS['stories/crypto/slow.js'], sets: { crypto: true, cryptoExerciseSlow: true }, about: 'pbkdf2Sync in the auth middleware, every request' },
  { name: 'crypto-fixed', kind: 'story', entry: 'stories/crypto/fixed.js', headers: STORY_REQUEST_HEADERS['stories/crypto/fixed.js'], sets: { crypto: true, cryptoExerciseFixed: true }, about: 'the key derived once per credential, off the event loop, cached' },
  { name: 'backend-slow', kind: 'story', entry: 'stories/backend/slow.js', processTree: true, sets: { backend: 1 }, about: 'a new connection to the backend process per request' },
  { name: 'backend-pooled', kind: 'story', entry: 'stories/backend/fixed.js', env: { CONTENT_CACHE_TTL_MS: '0' }, processTree: true, sets: { backend: 2 }, about: 'a pool of 10 kept-alive connections, no cache' },
  { name: 'backend-fixed', kind: 'story', entry: 'stories/backend/fixed.js', processTree: true, sets: { backend: 3 }, about: 'the pool and a 1 s cache of the content' },
  { name: 'cluster', kind: 'story', entry: 'stories/cluster', processTree: true, sets: { cluster: true }, about: 'fixed as one worker per core behind node:cluster' },

  { name: 'restify', kind: 'reference', entry: 'bench/references/restify.js', sets: {}, about: 'a bare restify route sending fixed\'s bytes and headers, built once: the ceiling for restify' }
]

function targetsIn (set) {
  const rows = CATALOGUE.filter((row) => set in row.sets)
  if (rows.length === 0) throw new Error(`no target is in the set "${set}"`)
  const place = (row) => row.sets[set] === true ? 0 : row.sets[set]
  return rows.sort((a, b) => place(a) - place(b)).map((row) => row.name)
}

function theTargetIn (set) {
  const names = targetsIn(set)
  if (names.length !== 1) throw new Error(`the set "${set}" holds ${names.length} targets, not one`)
  return names[0]
}

const TARGETS = Object.fromEntries(CATALOGUE.map(({ name, kind, sets, ...definition }) => [name, definition]))

const entriesOf = (kind) => [...new Set(CATALOGUE.filter((row) => row.kind === kind).map((row) => row.entry))]

const VARIANTS = entriesOf('variant')
const STORY_SERVERS = entriesOf('story')

const LEAKING = CATALOGUE.filter((row) => row.leaking).map((row) => row.name)
const isLeaking = (name) => LEAKING.includes(name)

module.exports = { CATALOGUE, TARGETS, VARIANTS, STORY_SERVERS, LEAKING, isLeaking, targetsIn, theTargetIn }
