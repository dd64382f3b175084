'use strict'

// Change points in a series of measurements: E-divisive means (Matteson
// and James, 2014, "A Nonparametric Approach for Multiple Change Point
// Analysis of Multivariate Data", JASA 109:505), as MongoDB runs it on its
// benchmarks' histories (Daly et al., ICPE 2020; signal-processing-algorithms
// on PyPI). Written here: the npm registry has no E-divisive, nor PELT nor
// CUSUM. It makes no assumption about the noise's distribution, which
// suits a count that barely moves as well as a time that jumps.
//
// The series is split where the energy distance between the points before
// and after is greatest (qHat below); the split stands if no shuffle of the
// points does as well (a permutation test), and each part is split again
// the same way until a split does not stand.

// Shuffles per test. A split stands where none of them does as well:
// p = 1/200, the permutation test's smallest p-value (Phipson and Smyth,
// 2010: the series as it is counts among the shuffles). A history is
// tested once per window and again on each side of every change found, so
// each test is held strict: a step the noise could make once in a hundred
// is no change here.
const PERMUTATIONS = 199
const ALPHA = 1 / (PERMUTATIONS + 1)
// The fewest points on either side of a split.
const MIN_SIZE = 2
// The shuffles are drawn from a generator seeded with this, so the same
// series gives the same change points on every machine and every run.
const SEED = 0x5eed

/**
 * The change points of `series` (numbers), in the order of the series:
 * [{ index (the first point after the change, 0-based), qHat, probability
 * (the permutation test's p-value) }].
 */
function findChangePoints (series, { alpha = ALPHA, permutations = PERMUTATIONS, seed = SEED } = {}) {
  const values = Float64Array.from(series)
  const random = generator(seed)
  const found = []
  const best = new Map()
  for (;;) {
    const bounds = [0, ...found.map((point) => point.index).sort((a, b) => a - b), values.length]
    const windows = bounds.slice(1).map((end, i) => [bounds[i], end])
    let candidate = null
    for (const [from, to] of windows) {
      const key = `${from}-${to}`
      if (!best.has(key)) best.set(key, bestSplit(values.subarray(from, to), from))
      const split = best.get(key)
      if (split && (!candidate || split.qHat > candidate.qHat)) candidate = split
    }
    if (!candidate) break
    const probability = permutationProbability(values, windows, candidate.qHat, permutations, random)
    if (probability > alpha) break
    found.push({ ...candidate, probability })
  }
  return found.sort((a, b) => a.index - b.index)
}

// The split of `values` with the greatest qHat: { index (offset by
// `offset`), qHat }, or null when it is too short to split.
function bestSplit (values, offset) {
  const q = qHat(values)
  let index = 0
  for (let tau = 1; tau < q.length; tau++) if (q[tau] > q[index]) index = tau
  return q[index] > 0 ? { index: index + offset, qHat: q[index] } : null
}

/**
 * qHat at every split of `values`: [tau] is the energy statistic of
 * X = values[0..tau) against Y = values[tau..), scaled by nm/(n+m);
 * 0 where either side has fewer than MIN_SIZE points. With |x - y| as the
 * distance (Matteson and James's alpha = 1):
 *   qHat = nm/(n+m) * (2/(nm) sum|X-Y| - 2/(n(n-1)) sum|X-X'| - 2/(m(m-1)) sum|Y-Y'|)
 * Moving one point from Y to X updates the three sums, so every split
 * costs O(N) and the whole O(N^2), with no matrix kept.
 */
function qHat (values) {
  const length = values.length
  const q = new Float64Array(length)
  let withinX = 0
  let withinY = 0
  for (let j = 0; j < length; j++) for (let k = j + 1; k < length; k++) withinY += Math.abs(values[j] - values[k])
  let cross = 0
  for (let tau = 1; tau < length; tau++) {
    // The point at tau - 1 moves from Y to X.
    const moving = values[tau - 1]
    let toX = 0
    let toY = 0
    for (let i = 0; i < tau - 1; i++) toX += Math.abs(values[i] - moving)
    for (let j = tau; j < length; j++) toY += Math.abs(moving - values[j])
    withinX += toX
    withinY -= toY
    cross += toY - toX
    const n = tau
    const m = length - tau
    if (n < MIN_SIZE || m < MIN_SIZE) continue
    q[tau] = (n * m / (n + m)) * (2 * cross / (n * m) - 2 * withinX / (n * (n - 1)) - 2 * withinY / (m * (m - 1)))
  }
  return q
}

// The share of `permutations` shuffles, each window shuffled within itself,
// whose best qHat in any window reaches `observed`, counting the series as
// it is among them.
function permutationProbability (values, windows, observed, permutations, random) {
  let asHigh = 0
  for (let p = 0; p < permutations; p++) {
    let highest = 0
    for (const [from, to] of windows) {
      const shuffled = shuffle(values.slice(from, to), random)
      const split = bestSplit(shuffled, 0)
      if (split) highest = Math.max(highest, split.qHat)
    }
    if (highest >= observed) asHigh++
  }
  return (asHigh + 1) / (permutations + 1)
}

function shuffle (values, random) {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const kept = values[i]
    values[i] = values[j]
    values[j] = kept
  }
  return values
}

// mulberry32: a small seeded generator, plenty for shuffles.
function generator (seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

module.exports = { findChangePoints, qHat, ALPHA, PERMUTATIONS, MIN_SIZE }
