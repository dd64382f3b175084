'use strict'

// The statistics of the comparisons: medians, paired ratios, goals, the baseline report's
// permutation test and bench:compare's signed-rank test. Pure functions.

const { GATED, WATCHED } = require('../protocol/metrics')

function median (values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

// The median over rounds of of/over measured in the same round; null when a target or metric is missing.
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

// This run's CPU-per-request ratios over `reference` against a stored run's, by a one-sided permutation
// test at `alpha` split over the ratios. Ratios between the case study's own targets are goals, not compared.
// A report, not a gate (evaluate.js), but it says `holds` as a goal does: --json results store that name.
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

// One-sided p-value of an exact permutation test: it assumes only that rounds are exchangeable, not the
// normality the t-tests of npm's statistics libraries need. `statistic` defaults to the difference of means.
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

// Bonferroni: each of `count` comparisons gets an equal share, so the whole gate's false-alarm rate stays at or under `alpha`.
function shareOfAlpha (alpha, count) {
  return alpha / Math.max(1, count)
}

function smallestPermutationP (first, second) {
  return 1 / binomial(first + second, first)
}

function binomial (n, k) {
  let result = 1
  for (let i = 1; i <= k; i++) result = result * (n - k + i) / i
  return Math.round(result)
}

// Student's two-sample t-test, two-sided, on two sides' means and standard deviations, as Apache Otava
// decides a change point (scipy's ttest_ind with equal variances); the p-value through the regularized
// incomplete beta function (Numerical Recipes, 3rd ed., section 6.4). Written here: npm's well-kept
// t-distribution (@stdlib/stats-base-dists-t-cdf) installs 223 packages for it.
// `leastVariance`: the pooled variance is taken as at least this (bench/history/change-points.js
// floors it at the data's rounding, so that two sides of equal points still give a p).
function studentTTest (left, right, { leastVariance = 0 } = {}) {
  const [n, m] = [left.length, right.length]
  if (n + m <= 2) return { t: 0, p: 1 }
  const [meanLeft, meanRight] = [mean(left), mean(right)]
  const squares = (values, centre) => values.reduce((sum, v) => sum + (v - centre) ** 2, 0)
  const degrees = n + m - 2
  const pooled = Math.max(leastVariance, (squares(left, meanLeft) + squares(right, meanRight)) / degrees)
  const error = Math.sqrt(pooled * (1 / n + 1 / m))
  if (error === 0) return { t: meanLeft === meanRight ? 0 : Infinity, p: meanLeft === meanRight ? 1 : 0 }
  const t = (meanRight - meanLeft) / error
  return { t, p: incompleteBeta(degrees / (degrees + t * t), degrees / 2, 0.5) }
}

function incompleteBeta (x, a, b) {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x))
  return x < (a + 1) / (a + b + 2) ? front * betaFraction(x, a, b) / a : 1 - front * betaFraction(1 - x, b, a) / b
}

// The continued fraction of the incomplete beta, by Lentz's method.
function betaFraction (x, a, b) {
  const tiny = 1e-300
  let c = 1
  let d = 1 - (a + b) * x / (a + 1)
  d = 1 / (Math.abs(d) < tiny ? tiny : d)
  let h = d
  for (let k = 1; k <= 300; k++) {
    for (const term of [k * (b - k) * x / ((a + 2 * k - 1) * (a + 2 * k)), -(a + k) * (a + b + k) * x / ((a + 2 * k) * (a + 2 * k + 1))]) {
      d = 1 + term * d
      d = 1 / (Math.abs(d) < tiny ? tiny : d)
      c = 1 + term / c
      if (Math.abs(c) < tiny) c = tiny
      h *= d * c
    }
    if (Math.abs(d * c - 1) < 1e-15) break
  }
  return h
}

// Lanczos' approximation (g = 7, nine terms), good to 15 digits for x > 0.
const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7]
function logGamma (x) {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  let sum = LANCZOS[0]
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i] / (x - 1 + i)
  const t = x - 0.5 + 7
  return 0.5 * Math.log(2 * Math.PI) + (x - 0.5) * Math.log(t) - t + Math.log(sum)
}

function spread (values) {
  const finite = values.filter((v) => Number.isFinite(v) && v > 0)
  if (finite.length < 2) return null
  return Math.max(...finite) / Math.min(...finite) - 1
}

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

// The round whose req/s is the median (the lower middle one for an even count): the one the charts draw.
function medianRound (own) {
  if (own.length === 0) return null
  const sorted = [...own].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

// bench:compare's change from `base` to `head`, paired by round, on log ratios: exact Wilcoxon signed-rank
// p-values, the Hodges-Lehmann estimate and a 1 - 2 alpha interval. Ranks, not values: a round the machine
// disturbed moves the verdict by one rank. `resolvable` is false when no p-value can get under `alpha`.
function pairedChange (base, head, { alpha }) {
  const logs = base.map((b, i) => Math.log(head[i] / b)).filter(Number.isFinite)
  const rounds = logs.length
  if (rounds === 0) return { rounds, change: null, interval: [null, null], pWorse: null, pBetter: null, resolvable: false }
  if (rounds > MAX_SIGN_FLIP_ROUNDS) throw new RangeError(`pairedChange: at most ${MAX_SIGN_FLIP_ROUNDS} rounds, got ${rounds}`)
  const pAbove = (shift) => signedRankPValue(logs.map((v) => v - shift))
  const pBelow = (shift) => signedRankPValue(logs.map((v) => shift - v))
  const resolvable = 2 ** -rounds < alpha
  // Each bound is where a one-sided test stops rejecting; its p-value is monotone in the shift.
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

// Ties get their mean rank; zeros count for neither side but keep their rank.
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

// The sign-flip test sums every one of 2^n assignments: this bounds n.
const MAX_SIGN_FLIP_ROUNDS = 16

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

// The shift where `isAbove(shift)` turns from false to true; outside the values every sign agrees.
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

module.exports = { median, pairedRatio, evaluateRatios, compareWithBaseline, permutationPValue, binomial, shareOfAlpha, smallestPermutationP, pairedChange, signFlipPValue, signedRankPValue, MAX_SIGN_FLIP_ROUNDS, studentTTest, spread, summarizeTargets, medianRound }
