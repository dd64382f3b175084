'use strict'

// A run's --json result as Bencher Metric Format and github-action-benchmark's
// custom format. Each figure is the median over rounds, bounded by its extremes.

const { median } = require('../judge/stats')
const { metric, GATED } = require('../protocol/metrics')

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

// Renaming a Bencher measure starts a new one: these are the names uploads use.
const BENCHER_MEASURES = {
  requestsPerSecond: 'requests-per-second',
  cpuMicrosPerRequest: 'cpu-microseconds-per-request',
  latencyP99: 'latency-p99-milliseconds'
}
const SMALLER_IS_BETTER = Object.keys(BENCHER_MEASURES).map(metric).filter((row) => row.better === 'lower')

// For `tool: customSmallerIsBetter`: only the figures the gate holds.
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

// The median (or `value`) with the extremes as bounds; null when no value is a number.
function boundsOf (values, value = null) {
  const finite = values.filter(Number.isFinite)
  if (finite.length === 0) return null
  return { value: value ?? median(finite), lower_value: Math.min(...finite), upper_value: Math.max(...finite) }
}

module.exports = { toBencherMetricFormat, toGithubBenchmark }
