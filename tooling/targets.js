'use strict'

// The catalogue of targets: every server the tools measure, one row each,
// and the one place their names are listed. The variants the tools start by
// name (tooling/repo.js's VARIANTS), the story servers, every command's
// default targets and the mode's checks all come from these rows; a goal
// names its two targets in bench/judge/goals.js. It lives in tooling/, the
// ground floor, because tooling/ (server-path.js, repo.js) needs the
// variants' names and imports no tool; bench/protocol/targets.js hands the
// rows to the measuring as a run starts them.
//
// Adding a variant: its folder (a copy of fixed/, say), one row here, and
// its goals in bench/judge/goals.js if it has any
// (test/tooling/targets.test.js adds one).

const { STORY_REQUEST_HEADERS } = require('./story-headers')

/**
 * A row: `name`; `kind`, 'variant' (a folder of the case study, `node
 * <entry>`), 'reference' (bench/references/) or 'story' (stories/);
 * how it is started and loaded; `about`, a line for the reports; and
 * `sets`, the lists it is in, each `true` (in the catalogue's order) or a
 * number (its place, where the list keeps an order of its own). The sets:
 *   start        npm start and npm run bench (modes start and full)
 *   ci           npm run bench:ci
 *   errorFree, timeoutFree, shedding
 *                the checks of modes full and ci (bench/judge/goals.js)
 *   logging, crypto, backend, cluster
 *                a story's mode
 *   reference    what every CPU figure is divided by (one target)
 *   user         what a user's own target is measured against
 *   counted      what --meter instructions counts by default (fast first:
 *                it takes longest, and two count at a time)
 *   compare      bench:compare's default targets
 *   calibrate    the target bench:calibrate makes slower (one target)
 *   speed        what verify's speed runs beside the participant's server
 *   speedLine    verify's line of CPU ratios, in its order
 *   speedBetween verify's place of yours: from the first (0) to the second (1)
 *   steps        the case study's three steps, in its order: what npm run
 *                figures counts in instructions, each step over the next
 *
 * The run's settings, read by bench/measure/: `conditional` targets are
 * loaded with If-None-Match set to the ETag the server currently sends. A
 * `leaking` target's cost per response grows with the responses it has
 * served (slow: one more 'after' listener each), so it is warmed up and
 * measured by a count of requests, not by seconds: every machine then
 * measures it at the same listener count, fast or slow. `env` is added to
 * the server's environment. `stdout` starts the target with a file as its
 * stdout (tooling/target-process.js says which kinds); `headers` go with
 * every request; `processTree` targets are several processes, whose CPU
 * time and peak memory are summed from /proc.
 */
const CATALOGUE = [
  // The case study, each started in a fresh process through the launcher a
  // user runs (`node <entry>`), and the two servers it is measured against.
  { name: 'slow', kind: 'variant', entry: 'slow', leaking: true, sets: { start: true, ci: true, speed: true, speedLine: 3, steps: 1 }, about: 'the case study as it was: one more after listener per request' },
  // The overload comparison is between these two, under the same time-based
  // load: how long clients wait once a server falls behind, with and without
  // shedding. (Measured by request counts, slow-protected sheds in one run
  // and not the next: a short burst may end before its loop lags 100 ms.)
  { name: 'slow-unprotected', kind: 'variant', entry: 'slow', sets: { start: true }, about: 'slow under the same time-based load as slow-protected: the overload comparison\'s baseline' },
  { name: 'slow-protected', kind: 'variant', entry: 'slow', env: { OVERLOAD_MAX_DELAY_MS: '100' }, sets: { start: true, timeoutFree: true, shedding: true }, about: 'slow with overload protection: 503 while the event loop lags > 100 ms' },
  { name: 'fast', kind: 'variant', entry: 'fast', sets: { start: true, ci: true, errorFree: true, timeoutFree: true, user: 2, counted: 1, compare: 3, speed: true, speedLine: 1, speedBetween: 2, steps: 2 }, about: 'the one-line fix: one listener, still hashing every body' },
  { name: 'fixed', kind: 'variant', entry: 'fixed', sets: { start: true, ci: true, errorFree: true, timeoutFree: true, backend: 4, cluster: true, user: 3, counted: 2, compare: 1, calibrate: true, speed: true, speedLine: 2, speedBetween: 1, steps: 3 }, about: 'route-supplied ETag, body serialized once' },
  { name: 'fixed-304', kind: 'variant', entry: 'fixed', conditional: true, sets: { start: true, ci: true, errorFree: true, timeoutFree: true, counted: 3, compare: 2 }, about: 'fixed, every request If-None-Match with the current ETag' },
  { name: 'node-http', kind: 'reference', entry: 'bench/references/node-http.js', sets: { start: true, ci: true, reference: true, user: 1 }, about: 'plain node:http sending what fixed sends: the ceiling' },
  { name: 'fastify', kind: 'reference', entry: 'bench/references/fastify.js', sets: { start: true }, about: 'fastify 5 + @fastify/etag + response schema: the peer' },

  // The four stories beside the case study (stories/, docs/stories.md,
  // "Four more expensive lines"), each a pair, each its own mode.
  { name: 'logging-slow', kind: 'story', entry: 'stories/logging/slow.js', stdout: 'synchronous-file', sets: { logging: 1 }, about: 'console.log per request into a file on a slow disk (O_DSYNC): each line waits for it' },
  { name: 'logging-fixed', kind: 'story', entry: 'stories/logging/fixed.js', stdout: 'synchronous-file', sets: { logging: 2 }, about: 'pino, asynchronous, one write per 4 KiB, into the same slow file' },
  { name: 'logging-slow-file', kind: 'story', entry: 'stories/logging/slow.js', stdout: 'file', sets: { logging: 3 }, about: 'console.log per request into an ordinary file: written synchronously, to the page cache' },
  { name: 'logging-slow-piped', kind: 'story', entry: 'stories/logging/slow.js', sets: { logging: 5 }, about: 'console.log per request into a pipe: written asynchronously' },
  { name: 'logging-fixed-file', kind: 'story', entry: 'stories/logging/fixed.js', stdout: 'file', sets: { logging: 4 }, about: 'pino into an ordinary file: what its own work costs where writing is cheap' },
  { name: 'crypto-slow', kind: 'story', entry: 'stories/crypto/slow.js', headers: STORY_REQUEST_HEADERS['stories/crypto/slow.js'], sets: { crypto: true }, about: 'pbkdf2Sync in the auth middleware, every request' },
  { name: 'crypto-fixed', kind: 'story', entry: 'stories/crypto/fixed.js', headers: STORY_REQUEST_HEADERS['stories/crypto/fixed.js'], sets: { crypto: true }, about: 'the key derived once per credential, off the event loop, cached' },
  { name: 'backend-slow', kind: 'story', entry: 'stories/backend/slow.js', processTree: true, sets: { backend: 1 }, about: 'a new connection to the backend process per request' },
  { name: 'backend-pooled', kind: 'story', entry: 'stories/backend/fixed.js', env: { CONTENT_CACHE_TTL_MS: '0' }, processTree: true, sets: { backend: 2 }, about: 'a pool of 10 kept-alive connections, no cache' },
  { name: 'backend-fixed', kind: 'story', entry: 'stories/backend/fixed.js', processTree: true, sets: { backend: 3 }, about: 'the pool and a 1 s cache of the content' },
  { name: 'cluster', kind: 'story', entry: 'stories/cluster', processTree: true, sets: { cluster: true }, about: 'fixed as one worker per core behind node:cluster' },

  // In no list, run only when named (--targets): a bare restify route
  // sending fixed's bytes, the ceiling for a restify server, which splits
  // fixed's distance to node-http into restify's share and fixed's own
  // (docs/benchmark.md, "Where fixed's time goes").
  { name: 'restify', kind: 'reference', entry: 'bench/references/restify.js', sets: {}, about: 'a bare restify route sending fixed\'s bytes and headers, built once: the ceiling for restify' }
]

/**
 * The names of the targets in `set`, in the set's order: numbered places
 * first by number, then the rest in the catalogue's order. Throws for a set
 * no target is in (a misspelt name would otherwise be an empty list).
 */
function targetsIn (set) {
  const rows = CATALOGUE.filter((row) => set in row.sets)
  if (rows.length === 0) throw new Error(`no target is in the set "${set}"`)
  const place = (row) => row.sets[set] === true ? 0 : row.sets[set]
  return rows.sort((a, b) => place(a) - place(b)).map((row) => row.name)
}

// The one target of a set that holds one (the reference, the calibrated).
function theTargetIn (set) {
  const names = targetsIn(set)
  if (names.length !== 1) throw new Error(`the set "${set}" holds ${names.length} targets, not one`)
  return names[0]
}

// Every target by name, as a run starts it: the row without its name, kind
// and sets ({ entry, ...settings, about }).
const TARGETS = Object.fromEntries(CATALOGUE.map(({ name, kind, sets, ...definition }) => [name, definition]))

// What the rows of `kind` start, each once, in the catalogue's order.
const entriesOf = (kind) => [...new Set(CATALOGUE.filter((row) => row.kind === kind).map((row) => row.entry))]

// The case study's variants, each a folder `node <variant>` starts, and the
// story servers, each `node <file>`.
const VARIANTS = entriesOf('variant')
const STORY_SERVERS = entriesOf('story')

// The leaking targets (slow), and whether a server by `name` (as
// tooling/server-path.js names it) is one: the diagnoses load it by a count
// of requests, and soak reads its leak rather than holding its memory flat.
const LEAKING = CATALOGUE.filter((row) => row.leaking).map((row) => row.name)
const isLeaking = (name) => LEAKING.includes(name)

module.exports = { CATALOGUE, TARGETS, VARIANTS, STORY_SERVERS, LEAKING, isLeaking, targetsIn, theTargetIn }
