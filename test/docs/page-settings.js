'use strict'

// The settings the pages give, each held to what sets it: `text`, as a page
// writes it; `holds()`, true while the code (or Node) sets that value. A
// page that gives a new setting adds it here.

const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')

const source = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8')

// The value of `const NAME = …` in `file`, a number (`5 * 2 ** 20` reads as 5 MiB).
function constant (file, name) {
  const match = new RegExp(`^const ${name} = ([\\d. *]+)$`, 'm').exec(source(file))
  if (!match) throw new Error(`no const ${name} in ${file}`)
  // A product of powers: `5 * 2 ** 20`.
  return match[1].replace(/\*\*/g, '^').split('*')
    .map((factor) => factor.split('^').map(Number).reduceRight((exponent, base) => base ** exponent))
    .reduce((product, factor) => product * factor)
}
const soakDefault = () => /\{ duration = (\d+),/.exec(source('soak/index.js'))?.[1]
const nodeServer = new http.Server()
const MiB = 2 ** 20
const { MODES } = require('../../bench/judge/goals')
const { TARGETS } = require('../../bench/protocol/targets')
const { SPEED_PROTOCOL, SPEED_ALPHA } = require('../../workshop/speed')
// A mode's protocol as a page's table gives it: warm-up and measured
// seconds, slow's warm-up and measured requests, rounds.
const protocolIs = (mode, values) => {
  const { warmup, duration, warmupRequests, requests, rounds } = MODES[mode].protocol
  return [warmup, duration, warmupRequests, requests, rounds].every((value, i) => value === values[i])
}

const SETTINGS = [
  // verify's level 1 line, in docs/verify.md's table and words, docs/tests.md.
  { text: 'five chunks of ten, 50 ms apart', holds: () => { const { LEAK_PROTOCOL: p } = require('../../workshop/levels/leak'); return p.chunks === 5 && p.window === 50 && p.chunkGapMs === 50 } },
  { text: 'flat is under x2', holds: () => constant('workshop/levels/leak.js', 'FLAT_CPU_GROWTH') === 2 },
  { text: 'growing past x2', holds: () => constant('workshop/levels/leak.js', 'FLAT_CPU_GROWTH') === 2 },
  { text: 'under the x2 line', holds: () => constant('workshop/levels/leak.js', 'FLAT_CPU_GROWTH') === 2 },
  { text: 'a line at x2', holds: () => constant('workshop/levels/leak.js', 'FLAT_CPU_GROWTH') === 2 },
  // The crypto exercise's levels, in docs/verify.md's table.
  { text: 'a burst of 16 requests', holds: () => require('../../workshop/levels/crypto/lesson').LESSON_PROTOCOL.burst === 16 },
  { text: 'after 8 of the 16 or more', holds: () => { const { LESSON_PROTOCOL: p, HELD_SHARE } = require('../../workshop/levels/crypto/lesson'); return Math.ceil(HELD_SHARE * p.burst) === 8 && p.burst === 16 } },
  { text: 'once per credential is under x3', holds: () => constant('workshop/levels/crypto/lesson.js', 'ONCE_PER_CREDENTIAL') === 3 },
  { text: '150 requests, each with a new wrong password of 8 KiB, 10 at a time', holds: () => { const { LEVER_PROTOCOL: p } = require('../../workshop/levels/crypto/lever'); return p.passwords === 150 && p.passwordBytes === 8192 && p.concurrency === 10 } },
  { text: 'less than 1,024 bytes a password', holds: () => constant('workshop/levels/crypto/lever.js', 'GROWTH_BYTES_PER_PASSWORD') === 1024 },
  // Doctor's rule, as diagnose/event-loop.js asks it.
  { text: 'a median delay of 10 ms, or one of 100 ms', holds: () => constant('diagnose/event-loop.js', 'FLAGGED_MEDIAN_MS') === 10 && constant('diagnose/event-loop.js', 'FLAGGED_MAX_MS') === 100 },
  { text: 'a median delay of 10 ms, or any single delay of 100 ms', holds: () => constant('diagnose/event-loop.js', 'FLAGGED_MEDIAN_MS') === 10 && constant('diagnose/event-loop.js', 'FLAGGED_MAX_MS') === 100 },
  { text: "under Doctor's 100 ms", holds: () => constant('diagnose/event-loop.js', 'FLAGGED_MAX_MS') === 100 },
  // docs/diagnose.md and docs/node-tools.md: the probe's timer, the line
  // under which Doctor's CPU check is overruled, and what test:clinic holds
  // this repo's share of Flame's profile of fixed to.
  { text: '10 ms timer', holds: () => constant('diagnose/event-loop-probe.js', 'TIMER_MS') === 10 },
  { text: '0.9 of a core', holds: () => constant('diagnose/doctor-verdict.js', 'CPU_CHECK_CORES') === 0.9 },
  { text: 'under 5 %', holds: () => source('test/clinic/clinic.test.js').includes('result.ownShare < 0.05') },
  // Node's own limits and defaults, which the launcher leaves or changes.
  { text: "Node's limit (16 KB)", holds: () => http.maxHeaderSize === 16 * 1024 },
  { text: 'a URL over 16 KB', holds: () => http.maxHeaderSize === 16 * 1024 },
  { text: 'closes them after 5 s', holds: () => nodeServer.keepAliveTimeout === 5000 },
  { text: "(Node's default: 60 s)", holds: () => nodeServer.headersTimeout === 60000 },
  { text: "(Node's default: 300 s)", holds: () => nodeServer.requestTimeout === 300000 },
  { text: 'Node checks every 30 s by default', holds: () => nodeServer.connectionsCheckingInterval === 30000 },
  // core/: the launcher's shutdown and the overload protection.
  { text: '(500 ms by default)', holds: () => constant('core/launch.js', 'DEFAULT_DRAIN_MS') === 500 },
  { text: 'open 5 s after the signal', holds: () => constant('core/launch.js', 'SHUTDOWN_GRACE_MS') === 5000 },
  { text: 'a timer every 10 ms', holds: () => constant('core/overload.js', 'RESOLUTION_MS') === 10 },
  { text: 'the last 250 ms window', holds: () => constant('core/overload.js', 'WINDOW_MS') === 250 },
  // The soak.
  { text: '60 s by default', holds: () => soakDefault() === '60' },
  { text: 'no more than 5 MB above', holds: () => constant('soak/index.js', 'ALLOWED_HEAP_GROWTH_BYTES') === 5 * MiB },
  // docs/benchmark.md, docs/stories.md, docs/workshop.md, docs/tests.md:
  // the benchmark's protocols and goals, verify's, and what the tests set.
  { text: 'more than 25 % apart', holds: () => source('bench/judge/evaluate.js').includes('const SPREAD_WORTH_A_WORD = 0.25\n') },
  { text: '| 2 s / 5 s (500 / 200) / 2 |', holds: () => protocolIs('start', [2, 5, 500, 200, 2]) },
  { text: '| 3 s / 10 s (500 / 200) / 3 |', holds: () => protocolIs('full', [3, 10, 500, 200, 3]) },
  { text: '| 0.5 s / 1.5 s (200 / 100) / 7 |', holds: () => protocolIs('ci', [0.5, 1.5, 200, 100, 7]) },
  { text: 'lags past 100 ms', holds: () => TARGETS['slow-protected'].env.OVERLOAD_MAX_DELAY_MS === '100' },
  { text: 'a 1 s cache', holds: () => constant('stories/backend/fixed.js', 'DEFAULT_CACHE_TTL_MS') === 1000 },
  { text: '2 s of warm-up and 5 s measured', holds: () => ['logging', 'crypto', 'backend', 'cluster'].every((mode) => MODES[mode].protocol.warmup === 2 && MODES[mode].protocol.duration === 5) },
  { text: 'autocannon -c 50 each, 1 s + 1.5 s', holds: () => SPEED_PROTOCOL.connections === 50 && SPEED_PROTOCOL.warmup === 1 && SPEED_PROTOCOL.duration === 1.5 },
  { text: '0.05, and the 90 % interval', holds: () => SPEED_ALPHA === 0.05 },
  { text: "fixed/'s CPU per request more than 10 % over", holds: () => source('workshop/speed.js').includes('const FIXED_BAND = 1.1\n') },
  // Windows' CPU clock, as the coarse-clock fixture rounds it.
  ...['15.6 ms ticks', 'rounded down to 15.6 ms', 'a 15.6 ms CPU clock'].map((text) => ({ text, holds: () => constant('test/workshop/fixtures/coarse-cpu-clock.js', 'TICK_MICROS') === 15625 })),
  { text: 'comment lines at most 10 % of the lines', holds: () => source('test/house/limits.test.js').includes('const MAX_COMMENT_SHARE = 0.1\n') },
  { text: 'a tax of 100,000 instructions', holds: () => constant('test/bench/instruction-meter-run.test.js', 'TAX') === 100000 },
  { text: 'the tax reads as asked, within 10 %', holds: () => source('test/bench/instruction-meter-run.test.js').includes('Math.abs(added / TAX - 1) < 0.1') },
  { text: 'holds the loop 120 ms of CPU a response', holds: () => source('test/machines/speeds.test.js').includes('fixedHoldingTheLoop(t, 120)') },
  { text: '3 s soak', holds: () => (source('test/soak/soak.test.js').match(/duration: 3,/g) ?? []).length === 2 },
  // bench:history's detector and its test (docs/history.md, docs/tests.md).
  { text: 'with its 95 % interval', holds: () => constant('bench/history/shift.js', 'Z') === 1.959964 },
  { text: '199 shuffles, p = 1/200', holds: () => constant('bench/history/change-points.js', 'PERMUTATIONS') === 199 },
  ...['gives p under 0.001', 'not at p under 0.001'].map((text) => ({ text, holds: () => constant('bench/history/change-points.js', 'ALPHA') === 0.001 })),
  ...['stands at p under 0.01', 'at p under 0.01 (Otava'].map((text) => ({ text, holds: () => require('../../bench/history/changes').WEAK_ALPHA === 0.01 })),
  { text: 'a +0.4 % step in six points', holds: () => source('test/bench/history/change-points.test.js').includes('meterSeries(11, 6, [[3, 0.004]])') },
  { text: "the instruction gate's allowance, 0.05 %", holds: () => require('../../bench/history/report').METER_MIN_MAGNITUDE === 0.0005 },
  { text: '`[1, 1, 2, 2]` then gives p = 0.074', holds: () => require('../../bench/history/change-points').findChangePoints([1, 1, 2, 2], { alpha: 1 })[0].probability.toFixed(3) === '0.074' },
  { text: 'within ±0.1 %', holds: () => require('../../bench/judge/instructions').INSTRUCTION_DEFAULTS.maxRegression === 0.001 },
  ...['one shift of +0.1 %', 'a +0.1 % shift'].map((text) => ({ text, holds: () => source('test/bench/history/change-points.test.js').includes('meterSeries(seed, 60, [[at, 0.001]])') }))
]

module.exports = { SETTINGS }
