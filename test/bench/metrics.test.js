'use strict'

// The metric catalogue (bench/protocol/metrics.js): both figure sets of a
// load have its keys, in its order; the printers and judges take each
// figure's label, unit, direction and gate from it.

const t = require('tap')
const { METRICS, metric, GATED, WATCHED } = require('../../bench/protocol/metrics')
const { runFigures, windowFigures } = require('../../bench/measure/load')
const { SUMMARY_COLUMNS } = require('../../bench/print/text')
const { toGithubBenchmark } = require('../../bench/print/ci-formats')
const { summarizeTargets } = require('../../bench/judge/stats')
const { COMPARED } = require('../../bench/compare/verdict')

const RESULT = {
  duration: 5,
  latency: { p50: 3, p97_5: 9, p99: 12, max: 40 },
  throughput: { average: 1000 },
  statusCodeStats: { 200: { count: 90 }, 503: { count: 8 }, 404: { count: 2 } },
  errors: 0,
  timeouts: 0
}
const BEFORE = { cpuMillis: 100, peakRssBytes: 1000, proc: { cpuMillis: 101, peakRssBytes: 1001 } }
const AFTER = { cpuMillis: 200, peakRssBytes: 5000, proc: { cpuMillis: 202, peakRssBytes: 5001 } }
// A window's recorder: 100 responses, latencies 1 to 100 ms.
const recorder = () => ({ responses: 100, statuses: { 200: 90, 503: 8, 404: 2 }, latencies: Array.from({ length: 100 }, (_, i) => 100 - i) })

t.test('a run and a window have the same figures: every row of the catalogue, in its order, then proc', async (t) => {
  const keys = [...METRICS.map((row) => row.key), 'proc']
  t.same(Object.keys(runFigures(RESULT, BEFORE, AFTER)), keys, 'autocannon\'s run')
  t.same(Object.keys(windowFigures(recorder(), RESULT, BEFORE, AFTER, 2)), keys, 'a timed window')
})

t.test('a window has what its recorder holds, and says null for what it does not', async (t) => {
  const window = windowFigures(recorder(), RESULT, BEFORE, AFTER, 2)
  t.equal(window.latencyP975, 98, 'p97.5 of its latencies')
  t.equal(window.latencyMax, 100, 'the largest')
  t.equal(window.status503, 8)
  t.equal(window.statusOther, 2, 'other: neither 2xx, 304 nor 503, as in a run')
  t.equal(window.bytesPerSecond, null, 'the recorder counts no bytes')
  t.same(window.proc, { cpuMillis: 101, peakRssBytes: 5001 })
  t.equal(runFigures(RESULT, BEFORE, AFTER).statusOther, 2)
})

t.test('a row without a value where figures are made fails there, and an unknown key fails the printer naming it', async (t) => {
  METRICS.push({ key: 'madeUp', label: 'x', format: 'integer' })
  t.teardown(() => METRICS.pop())
  t.throws(() => runFigures(RESULT, BEFORE, AFTER), /no value for the metric "madeUp"/)
  t.throws(() => metric('nope'), /no metric "nope"/)
})

t.test('the printers and judges read the catalogue', async (t) => {
  const labels = METRICS.map((row) => row.label)
  for (const column of SUMMARY_COLUMNS.slice(1)) t.ok(labels.includes(column.title), `the run's table: ${column.title}`)
  t.equal(COMPARED[0], GATED, 'bench:compare judges the gated figure first')
  t.same(METRICS.filter((row) => row.gated), [GATED], 'one figure gates')
  const entries = toGithubBenchmark({ runs: [{ target: 'fixed', cpuMicrosPerRequest: 20, latencyP99: 5, requestsPerSecond: 1e4 }], summaries: [{ target: 'fixed' }], ratios: [] })
  t.same(entries.map((e) => [e.name, e.unit]), [['fixed - CPU per request', 'µs/req'], ['fixed - p99 latency', 'ms']],
    'github-action-benchmark: the smaller-is-better rows, by their names and units')
  const [summary] = summarizeTargets([{ target: 'fixed', round: 1, requestsPerSecond: 10, cpuMicrosPerRequest: 2 }, { target: 'fixed', round: 2, requestsPerSecond: 20, cpuMicrosPerRequest: 2 }], ['fixed'])
  t.same(Object.keys(summary.spread), WATCHED.map((row) => row.key), 'the spread of the watched rows')
})
