'use strict'

// bench:compare's judgement, from the pairs paired-run.js measured:
// per target, the change from base to head of CPU per request (gated), of
// req/s and of p99 latency (reported), each with its interval and p-values
// from the paired test (bench/judge/stats.js, pairedChange). Pure
// functions, tested in test/serial/bench/compare.test.js.

const { signedPercent } = require('../../tooling/number-text')
const { median, pairedChange, shareOfAlpha } = require('../judge/stats')
const { metric, GATED } = require('../protocol/metrics')

// The figures compared, rows of the metric catalogue
// (bench/protocol/metrics.js): the gated one first, the verdict's, then
// those reported beside it.
const COMPARED = [GATED.key, 'requestsPerSecond', 'latencyP99'].map(metric)

/**
 * The verdict on every target of `pairs`: `alpha` is the false-alarm rate
 * of the whole comparison, split evenly over the targets (Bonferroni), and
 * `maxRegression` the allowance (0.05 = 5 %). A target's CPU per request
 * - regressed (the run fails) when the head is costlier at that level of
 *   significance (its interval lies above 0) and its interval reaches the
 *   allowance: a regression that large cannot be ruled out;
 * - is 'slower, within the allowance' when it is significantly costlier
 *   but its whole interval lies under the allowance;
 * - is an 'improvement' when significantly cheaper;
 * - else shows 'no significant change', with a note when its interval
 *   still reaches the allowance (the run was too noisy or too short to rule
 *   a regression out).
 * Returns { alphaPerTarget, comparisons: [{ target, rounds, verdict,
 * regressed, note, metrics: { key: { base, head, change, interval, pWorse,
 * pBetter } } }], failures: [sentence] }: the instruction gate's shape
 * (judge/instructions.js), but that a comparison holds every figure
 * compared, each with its interval: the allowance is held against the
 * interval's upper end, since paired rounds say how large a change they
 * cannot rule out. (The gate against a stored run, judge/stats.js's
 * compareWithBaseline, says why it has a shape of its own.)
 */
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
