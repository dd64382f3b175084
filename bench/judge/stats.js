'use strict'

// The statistics of the comparisons: medians, ratios of paired rounds,
// goals, the baseline gate's permutation test and bench:compare's
// signed-rank test. Pure functions, unit-tested in test/bench/stats.test.js
// and test/serial/bench/compare.test.js.

const { GATED, WATCHED } = require('../protocol/metrics')

/**
 * The median of `values` (the mean of the middle two for an even count),
 * or null for none.
 */
function median (values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * The ratio `definition` describes, from `runs` ({ target, round, ...metrics }):
 * the median over rounds of of/over measured in the same round. Null when a
 * target was not run or a metric is missing.
 */
function pairedRatio (runs, { of, over, metric }) {
  const ratios = []
  for (const run of runs.filter((r) => r.target === of)) {
    const partner = runs.find((r) => r.target === over && r.round === run.round)
    if (partner && Number.isFinite(run[metric]) && Number.isFinite(partner[metric]) && partner[metric] > 0) {
      ratios.push(run[metric] / partner[metric])
    }
  }
  return { value: median(ratios), pairs: ratios }
}

/**
 * Each ratio of `definitions` with its goal from `goals` (if any) and
 * whether it holds: `higher` ratios must reach the goal, `lower` ones stay
 * at or under it. Ratios whose targets were not both run are left out.
 */
function evaluateRatios (runs, definitions, goals = {}) {
  return definitions
    .map((definition) => {
      const { value, pairs } = pairedRatio(runs, definition)
      const goal = goals[definition.name] ?? null
      let holds = null
      if (goal !== null && value !== null) holds = definition.better === 'lower' ? value <= goal : value >= goal
      return { name: definition.name, over: definition.over, metric: definition.metric, better: definition.better, value, pairs, goal, holds }
    })
    .filter((ratio) => ratio.value !== null)
}

/**
 * The gate: compare the CPU-per-request ratios over `reference` of this run
 * (each target's CPU divided by the reference's, measured in the same rounds)
 * with those of an earlier result, round by round. Only those: a ratio
 * between two of the case study's own targets (cpu slow/fast, say) is a goal
 * the mode holds, not a figure a change to one server should be gated on, and
 * the gate's false-alarm rate was calibrated on the ratios over the
 * reference. A ratio regressed when an exact one-sided permutation test of
 * its rounds against the baseline's rounds gives a p-value under `alpha`
 * (split evenly over the ratios compared, Bonferroni, so the false-alarm
 * rate of the whole gate stays at or under `alpha`).
 * Returns [{ name, value, baseline, change, pValue, holds, note }]; holds is
 * null, with a note, when there are too few rounds for the test ever to
 * reach `alpha`.
 *
 * Why its shape is not the other two gates' ({ verdict, regressed } per
 * target, in { alphaPerTarget, comparisons, failures }: bench/compare/
 * verdict.js, judge/instructions.js): it judges ratios, not targets, of two
 * runs measured apart, so its rounds are not pairs (a permutation test, not
 * a signed-rank one) and it has no allowance; it is a report beside the
 * goals, not a gate that fails a run (judge/evaluate.js,
 * BASELINE_IS_A_REPORT), so it says `holds` as a goal does, and it is stored
 * so in a --json result's `baseline`, which renaming would change.
 */
function compareWithBaseline (ratios, baselineRatios, { alpha, reference }) {
  const gated = ratios.filter((ratio) => ratio.metric === GATED.key && ratio.over === reference &&
    baselineRatios.some((r) => r.name === ratio.name && Array.isArray(r.pairs)))
  const perRatioAlpha = shareOfAlpha(alpha, gated.length)
  return gated.map((ratio) => {
    const earlier = baselineRatios.find((r) => r.name === ratio.name)
    const baselinePairs = earlier.pairs.filter(Number.isFinite)
    const compared = { name: ratio.name, value: ratio.value, baseline: median(baselinePairs), rounds: ratio.pairs.length, baselineRounds: baselinePairs.length }
    compared.change = compared.value / compared.baseline - 1
    const smallest = smallestPermutationP(ratio.pairs.length, baselinePairs.length)
    if (ratio.pairs.length < 2 || baselinePairs.length < 2 || smallest >= perRatioAlpha) {
      return { ...compared, pValue: null, holds: null, note: `${ratio.pairs.length} rounds against ${baselinePairs.length}: too few for a p-value under ${perRatioAlpha.toPrecision(2)}` }
    }
    const worse = ratio.better === 'lower' ? 1 : -1
    compared.pValue = permutationPValue(ratio.pairs.map((v) => worse * v), baselinePairs.map((v) => worse * v))
    return { ...compared, holds: compared.pValue >= perRatioAlpha, note: null }
  })
}

/**
 * One-sided p-value of an exact permutation test: the share of the ways of
 * splitting all the values into groups of these two sizes in which the first
 * group is above the second by at least as much as observed, "above" being
 * `statistic` (group, other group) -> number: by default how far the first
 * group's mean exceeds the second's. No assumption about the distribution;
 * rounds must only be exchangeable. Written here because the test is a
 * dozen lines; the statistics libraries on npm offer t-tests, whose
 * normality the rounds do not promise.
 */
function permutationPValue (first, second, statistic = meanDifference) {
  const all = [...first, ...second]
  const observed = statistic(first, second)
  const tolerance = 1e-9 * Math.max(1, ...all.map(Math.abs))
  let asExtreme = 0
  let splits = 0
  const chosen = []
  ;(function choose (start) {
    if (chosen.length === first.length) {
      splits++
      const rest = all.filter((_, i) => !chosen.includes(i))
      if (statistic(chosen.map((i) => all[i]), rest) >= observed - tolerance) asExtreme++
      return
    }
    for (let i = start; i <= all.length - (first.length - chosen.length); i++) {
      chosen.push(i)
      choose(i + 1)
      chosen.pop()
    }
  })(0)
  return asExtreme / splits
}

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length
const meanDifference = (group, other) => mean(group) - mean(other)

/**
 * The share of a gate's false-alarm rate `alpha` each of its `count`
 * comparisons gets (Bonferroni), so that the whole gate's stays at or
 * under `alpha`: every gate splits it so (compareWithBaseline here,
 * bench/compare/verdict.js, judge/instructions.js).
 */
function shareOfAlpha (alpha, count) {
  return alpha / Math.max(1, count)
}

/**
 * The smallest p-value permutationPValue can give for groups of `first`
 * and `second` values: one split in all of them. A gate whose share of
 * alpha is at or under it cannot tell, whatever the values.
 */
function smallestPermutationP (first, second) {
  return 1 / binomial(first + second, first)
}

function binomial (n, k) {
  let result = 1
  for (let i = 1; i <= k; i++) result = result * (n - k + i) / i
  return Math.round(result)
}

/**
 * How far apart a target's rounds are: the largest over the smallest value,
 * minus one (0.3 = the largest round is 30 % above the smallest). Null for
 * fewer than two values.
 */
function spread (values) {
  const finite = values.filter((v) => Number.isFinite(v) && v > 0)
  if (finite.length < 2) return null
  return Math.max(...finite) / Math.min(...finite) - 1
}

/**
 * The medians over rounds of every numeric figure, per target, in the
 * order the targets were given, with the spread over the rounds of each
 * figure the metric catalogue marks `watched` (req/s and CPU per request).
 */
function summarizeTargets (runs, targets) {
  return targets
    .map((target) => {
      const own = runs.filter((run) => run.target === target)
      if (own.length === 0) return null
      const summary = { target, rounds: own.length }
      for (const key of Object.keys(own[0])) {
        if (typeof own[0][key] === 'number' && key !== 'round') summary[key] = median(own.map((run) => run[key]))
      }
      summary.spread = Object.fromEntries(WATCHED.map(({ key }) => [key, spread(own.map((run) => run[key]))]))
      return summary
    })
    .filter(Boolean)
}

/**
 * The run whose req/s is the median of `own` (one target's rounds; the
 * lower middle one for an even count), or null for none: the round the
 * charts draw.
 */
function medianRound (own) {
  if (own.length === 0) return null
  const sorted = [...own].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

/**
 * The change from `base` to `head`, measured in pairs: `base[i]` and
 * `head[i]` come from the same round (bench:compare measures them at the
 * same time). On the rounds' log ratios: the exact Wilcoxon signed-rank
 * test (one-sided p-values `pWorse`, head higher, and `pBetter`), the
 * Hodges-Lehmann estimate of the change (the median of the pairwise means
 * of the log ratios), and the changes that test does not reject at
 * `alpha` on either side as `interval`, a 1 - 2 alpha interval. Ranks, not
 * values: one round disturbed by the machine moves the verdict by one rank
 * (a mean-based test lets it carry the whole run; such rounds were seen
 * here). Rounds where a figure is missing are left out. Returns { rounds,
 * change, interval: [low, high], pWorse, pBetter, resolvable }; resolvable
 * is false when there are too few rounds for any p-value under `alpha`
 * (the interval is then unbounded).
 */
function pairedChange (base, head, { alpha }) {
  const logs = base.map((b, i) => Math.log(head[i] / b)).filter(Number.isFinite)
  const rounds = logs.length
  if (rounds === 0) return { rounds, change: null, interval: [null, null], pWorse: null, pBetter: null, resolvable: false }
  if (rounds > MAX_SIGN_FLIP_ROUNDS) throw new RangeError(`pairedChange: at most ${MAX_SIGN_FLIP_ROUNDS} rounds, got ${rounds}`)
  const pAbove = (shift) => signedRankPValue(logs.map((v) => v - shift))
  const pBelow = (shift) => signedRankPValue(logs.map((v) => shift - v))
  const resolvable = 2 ** -rounds < alpha
  // Each bound is where a one-sided test stops rejecting: its p-value is
  // monotone in the shift, so bisection finds it.
  const low = resolvable ? boundary(logs, (shift) => pAbove(shift) > alpha) : -Infinity
  const high = resolvable ? boundary(logs, (shift) => pBelow(shift) <= alpha) : Infinity
  const walshAverages = logs.flatMap((a, i) => logs.slice(i).map((b) => (a + b) / 2))
  return {
    rounds,
    change: Math.exp(median(walshAverages)) - 1,
    interval: [Math.exp(low) - 1, Math.exp(high) - 1],
    pWorse: pAbove(0),
    pBetter: pBelow(0),
    resolvable
  }
}

/**
 * One-sided p-value of the exact Wilcoxon signed-rank test that `values`
 * lie above 0: the sign-flip test on their signed ranks (ties get their
 * mean rank; zeros count as neither side, with rank).
 */
function signedRankPValue (values) {
  const order = values.map((v, i) => [Math.abs(v), i]).sort((a, b) => a[0] - b[0])
  const ranks = new Array(values.length)
  for (let start = 0; start < order.length;) {
    let end = start
    while (end + 1 < order.length && order[end + 1][0] === order[start][0]) end++
    for (let k = start; k <= end; k++) ranks[order[k][1]] = (start + end) / 2 + 1
    start = end + 1
  }
  return signFlipPValue(values.map((v, i) => Math.sign(v) * ranks[i]))
}

// 2^16 sign assignments, each summed over 16 rounds: a few milliseconds.
const MAX_SIGN_FLIP_ROUNDS = 16

/**
 * One-sided p-value of the exact sign-flip test: the share of the 2^n ways
 * of flipping the signs of `values` whose sum is at least the observed sum.
 * Written here for the reason permutationPValue is.
 */
function signFlipPValue (values) {
  const observed = values.reduce((sum, v) => sum + v, 0)
  const tolerance = 1e-9 * Math.max(1, values.reduce((sum, v) => sum + Math.abs(v), 0))
  let asExtreme = 0
  const assignments = 2 ** values.length
  for (let mask = 0; mask < assignments; mask++) {
    let sum = 0
    for (let i = 0; i < values.length; i++) sum += (mask >> i) & 1 ? -values[i] : values[i]
    if (sum >= observed - tolerance) asExtreme++
  }
  return asExtreme / assignments
}

// The shift where `isAbove(shift)` turns from false to true, between the
// smallest and the largest value (outside them every sign agrees).
function boundary (values, isAbove) {
  let below = Math.min(...values) - 1e-9
  let above = Math.max(...values) + 1e-9
  for (let step = 0; step < 60; step++) {
    const middle = (below + above) / 2
    if (isAbove(middle)) above = middle
    else below = middle
  }
  return (below + above) / 2
}

module.exports = { median, pairedRatio, evaluateRatios, compareWithBaseline, permutationPValue, binomial, shareOfAlpha, smallestPermutationP, pairedChange, signFlipPValue, signedRankPValue, MAX_SIGN_FLIP_ROUNDS, spread, summarizeTargets, medianRound }
