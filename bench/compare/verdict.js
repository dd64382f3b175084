'use strict'

// bench:compare's judgement from the paired rounds (bench/judge/stats.js,
// pairedChange): CPU per request gated, req/s and p99 latency reported.

const { signedPercent } = require('../../tooling/number-text')
const { median, pairedChange, shareOfAlpha } = require('../judge/stats')
const { metric, GATED } = require('../protocol/metrics')

const COMPARED = [GATED.key, 'requestsPerSecond', 'latencyP99'].map(metric)

// `alpha` is split evenly over the targets (Bonferroni). A target regressed
// when its CPU per request rose significantly and its interval reaches
// `maxRegression`: paired rounds say how large a change they cannot rule out.
function judgePairs (pairs, { targets, alpha, maxRegression }) {
  const alphaPerTarget = shareOfAlpha(alpha, targets.length)
  const comparisons = targets.map((target) => {
    const own = pairs.filter((pair) => pair.target === target)
    const metrics = {}
    for (const { key } of COMPARED) {
      const base = own.map((pair) => pair.base[key])
      const head = own.map((pair) => pair.head[key])
      metrics[key] = { base: median(base), head: median(head), ...pairedChange(base, head, { alpha: alphaPerTarget }) }
    }
    return { target, rounds: own.length, metrics, ...verdictOf(metrics[GATED.key], { alpha: alphaPerTarget, maxRegression }) }
  })
  const failures = comparisons.filter((c) => c.regressed).map((c) => {
    const cpu = c.metrics[GATED.key]
    return `${c.target}: ${GATED.name} ${signedPercent(cpu.change)} (${cpu.base.toFixed(2)} -> ${cpu.head.toFixed(2)} µs), ` +
      `interval ${intervalText(cpu.interval)}, p = ${cpu.pWorse.toPrecision(2)} over ${c.rounds} rounds: ` +
      `significant, and a regression of ${signedPercent(maxRegression)} or more cannot be ruled out`
  })
  return { alphaPerTarget, comparisons, failures }
}

function verdictOf (cpu, { alpha, maxRegression }) {
  if (!cpu.resolvable) {
    return { verdict: 'cannot tell', regressed: false, note: `${cpu.rounds} rounds cannot give a p-value under ${alpha.toPrecision(2)}` }
  }
  const reaches = cpu.interval[1] >= maxRegression
  if (cpu.pWorse < alpha) {
    return reaches
      ? { verdict: 'REGRESSION', regressed: true, note: null }
      : { verdict: `slower, within ${signedPercent(maxRegression)}`, regressed: false, note: null }
  }
  if (cpu.pBetter < alpha) return { verdict: 'improvement', regressed: false, note: null }
  return {
    verdict: 'no significant change',
    regressed: false,
    note: reaches ? `its interval reaches ${signedPercent(maxRegression)}: this run cannot rule out a regression that large (more rounds narrow it)` : null
  }
}

function intervalText ([low, high]) {
  return `${signedPercent(low)} … ${signedPercent(high)}`
}

module.exports = { judgePairs, COMPARED, intervalText }
