'use strict'

// A run's figures in the formats CI tools for benchmarks read. Pure
// functions of the --json result, tested in test/bench/formats.test.js.
// Each figure is the median over rounds, with the smallest and largest
// round as its bounds.

const { median } = require('../judge/stats')
const { metric, GATED } = require('../protocol/metrics')

/**
 * Bencher Metric Format (bencher.dev): { "<benchmark>": { "<measure>":
 * { value, lower_value, upper_value } } }. Benchmarks are the targets, with
 * three measures each, and the ratios, with one ("ratio"). Measures that do
 * not exist yet in a Bencher project are created by name on first upload.
 */
function toBencherMetricFormat ({ runs, summaries, ratios }) {
  const metrics = {}
  for (const { target } of summaries) {
    const own = runs.filter((run) => run.target === target)
    metrics[target] = {}
    for (const [key, measure] of Object.entries(BENCHER_MEASURES)) {
      const bounds = boundsOf(own.map((run) => run[key]))
      if (bounds) metrics[target][measure] = bounds
    }
  }
  for (const ratio of ratios) {
    const bounds = boundsOf(ratio.pairs, ratio.value)
    if (bounds) metrics[ratio.name] = { ratio: bounds }
  }
  return metrics
}

// The figures of the metric catalogue (bench/protocol/metrics.js) these
// formats carry, each by its Bencher measure's name (the names uploads
// already use: renaming one would start a new measure).
const BENCHER_MEASURES = {
  requestsPerSecond: 'requests-per-second',
  cpuMicrosPerRequest: 'cpu-microseconds-per-request',
  latencyP99: 'latency-p99-milliseconds'
}
// The same where smaller is better, for github-action-benchmark.
const SMALLER_IS_BETTER = Object.keys(BENCHER_MEASURES).map(metric).filter((row) => row.better === 'lower')

/**
 * github-action-benchmark's custom format for `tool: customSmallerIsBetter`:
 * [{ name, unit, value, range, extra }], only figures where smaller is
 * better: each target's CPU per request and p99 latency, and the CPU ratios
 * against the reference (the figures the gate holds).
 */
function toGithubBenchmark ({ runs, summaries, ratios }) {
  const entries = []
  for (const { target } of summaries) {
    const own = runs.filter((run) => run.target === target)
    for (const { key, name, unit } of SMALLER_IS_BETTER) {
      const bounds = boundsOf(own.map((run) => run[key]))
      if (bounds) entries.push(entry(`${target} - ${name}`, unit, bounds, `${own.length} rounds`))
    }
  }
  for (const ratio of ratios.filter((r) => r.metric === GATED.key)) {
    const bounds = boundsOf(ratio.pairs, ratio.value)
    if (bounds) entries.push(entry(ratio.name, 'ratio', bounds, `median of ${ratio.pairs.length} rounds' pairs`))
  }
  return entries
}

function entry (name, unit, { value, lower_value: lower, upper_value: upper }, extra) {
  return { name, unit, value, range: `± ${((upper - lower) / 2).toPrecision(3)}`, extra }
}

// { value, lower_value, upper_value }: the median (or `value`) and the
// smallest and largest of `values`; null when none is a number.
function boundsOf (values, value = null) {
  const finite = values.filter(Number.isFinite)
  if (finite.length === 0) return null
  return { value: value ?? median(finite), lower_value: Math.min(...finite), upper_value: Math.max(...finite) }
}

module.exports = { toBencherMetricFormat, toGithubBenchmark }
