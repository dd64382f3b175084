'use strict'

// Change points of a series by E-divisive means (Matteson and James, 2014),
// written here since npm has none: split where the energy distance between
// the two sides peaks, keep the split if it stands, repeat per part.
//
// Whether a split stands: by default Student's t-test between its two sides,
// as Apache Otava decides (Fleming et al., ICPE 2023), which can show a
// change in a few points of a count that barely moves; or, as the paper
// does, by shuffles: no shuffle of the parts may split as well, which needs
// dozens of points (four points give no p under 1/3).

const { studentTTest } = require('../judge/stats')

const TESTS = ['student', 'permutation']
// Otava's default threshold, for the merge; the split is held to ten times
// it, as Otava's first pass is.
const ALPHA = 0.001
const SPLIT_FACTOR = 10
const PERMUTATIONS = 199
const PERMUTATION_ALPHA = 1 / (PERMUTATIONS + 1)
const MIN_SIZE = 2
const SEED = 0x5eed

/**
 * The change points of `series`: [{ index (the first point after the
 * change), qHat, probability, from, to (the sides tested: from..index and
 * index..to, to excluded), magnitude }], in series order. `test`: 'student'
 * (alpha 0.001) or 'permutation' (alpha 1/200, `permutations` shuffles from
 * `seed`). With Student's test, `minMagnitude`: a change of the mean
 * smaller than this share of the level (Otava's min_magnitude) is none.
 */
function findChangePoints (series, options = {}) {
  return detectChangePoints(series, options).points
}

/**
 * { points (as findChangePoints), weak: the points the merge dropped, each
 * as it was last tested, its probability between alpha and ten times it,
 * split: the indices the split found }. Weak points come of Student's test
 * only.
 */
function detectChangePoints (series, { test = 'student', alpha, minMagnitude = 0, permutations = PERMUTATIONS, seed = SEED } = {}) {
  if (!TESTS.includes(test)) throw new TypeError(`test: one of ${TESTS.join(', ')}`)
  const values = Float64Array.from(series)
  if (test === 'permutation') {
    const random = generator(seed)
    const threshold = alpha ?? PERMUTATION_ALPHA
    const probability = (candidate, windows) => permutationProbability(values, windows, candidate.qHat, permutations, random)
    const points = withSides(values, divide(values, threshold, probability, bestSplit))
    return { points, weak: [], split: points.map((point) => point.index) }
  }
  const threshold = alpha ?? ALPHA
  const splitThreshold = Math.min(1, threshold * SPLIT_FACTOR)
  const leastVariance = roundingVariance(values)
  const probability = (candidate, windows, [from]) => tTestAt(values, candidate.index, [from, candidate.end], leastVariance)
  const split = divide(values, splitThreshold, probability, bestSplitAnyEnd)
  return { ...merge(values, split, { threshold, splitThreshold, minMagnitude, leastVariance }), split: split.map((point) => point.index) }
}

// E-divisive's split: the best candidate over every part, kept while it
// stands at `threshold`; each kept one cuts its part in two.
function divide (values, threshold, probabilityOf, splitOf) {
  const found = []
  const best = new Map()
  for (;;) {
    const windows = partsBetween(found, values.length)
    let candidate = null
    let part = null
    for (const [from, to] of windows) {
      const key = `${from}-${to}`
      if (!best.has(key)) best.set(key, splitOf(values.subarray(from, to), from))
      const split = best.get(key)
      if (split && (!candidate || split.qHat > candidate.qHat)) [candidate, part] = [split, [from, to]]
    }
    if (!candidate) return found.sort((a, b) => a.index - b.index)
    const probability = probabilityOf(candidate, windows, part)
    if (probability > threshold) return found.sort((a, b) => a.index - b.index)
    found.push({ ...candidate, probability })
  }
}

function partsBetween (points, length) {
  const bounds = [0, ...points.map((point) => point.index).sort((a, b) => a - b), length]
  return bounds.slice(1).map((end, i) => [bounds[i], end])
}

// Each point's sides run to its neighbours.
function withSides (values, points) {
  const bounds = [0, ...points.map((point) => point.index), values.length]
  return points.map((point, i) => ({ ...point, from: bounds[i], to: bounds[i + 2], magnitude: magnitudeAt(values, point.index, [bounds[i], bounds[i + 2]]) }))
}

function tTestAt (values, index, [from, to], leastVariance) {
  return studentTTest(values.subarray(from, index), values.subarray(index, to), { leastVariance }).p
}

// Two sides of equal points have no variance, and Student's t is then
// infinite: [1, 1, 2, 2] would be a change at p = 0. A figure is known to
// its last digit, though: 70005 to within 1, 1.25 to within 0.01. So the
// pooled variance is taken as at least a rounding error's over that last
// digit's step, step^2 / 12 (an error spread evenly over one step), the
// step being the finest of the series' figures as JSON writes them.
// [1, 1, 2, 2] then gives p = 0.074, and 20 points of 1,000,000 then 20 of
// 1,000,001 a change at p = 2.6e-13: the points hold it, though it is
// smaller than any meter's noise (the smallest magnitude keeps it out).
// Measured figures, with digits to the double's end, are not moved.
function roundingVariance (values) {
  let step = Infinity
  for (const value of values) step = Math.min(step, lastDigit(value))
  return Number.isFinite(step) ? step * step / 12 : 0
}

// 70005 -> 1, 1.25 -> 0.01, 2.5e-7 -> 1e-8, 0 -> Infinity (no digit).
function lastDigit (value) {
  if (value === 0) return Infinity
  const [mantissa, exponent = '0'] = String(Math.abs(value)).split('e')
  const fraction = mantissa.split('.')[1] ?? ''
  return 10 ** (Number(exponent) - fraction.length)
}

// How far the mean moved, as Otava measures it: the larger of the change
// relative to either side's mean.
function magnitudeAt (values, index, [from, to]) {
  const before = mean(values.subarray(from, index))
  const after = mean(values.subarray(index, to))
  if (before === after) return 0
  const base = Math.min(Math.abs(before), Math.abs(after))
  return base === 0 ? Infinity : Math.abs(after - before) / base
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length

// Otava's merge: the points the split found at ten times the threshold, each
// tested again between its neighbours; while the weakest does not stand at
// the threshold, it is dropped (a weak point, if its p is still under the
// split's threshold and its change not under `minMagnitude`) and the rest tested again, since its neighbours' sides
// grew. Then the smallest change under `minMagnitude` is dropped, and so on.
// A split found early, of a part mixing levels, may not hold once the parts
// beside it are cut; and a first split of a regression and its fix, whose
// sides mix the raised and the recovered levels, often stands at 0.01 where
// it would not at 0.001.
function merge (values, found, { threshold, splitThreshold, minMagnitude, leastVariance }) {
  const points = found.map((point) => ({ ...point }))
  const weak = []
  for (;;) {
    const bounds = [0, ...points.map((point) => point.index), values.length]
    points.forEach((point, i) => {
      const sides = [bounds[i], bounds[i + 2]]
      Object.assign(point, { probability: tTestAt(values, point.index, sides, leastVariance), from: sides[0], to: sides[1], magnitude: magnitudeAt(values, point.index, sides) })
    })
    if (points.length === 0) break
    const weakest = points.reduce((worst, point) => point.probability > worst.probability ? point : worst)
    if (weakest.probability > threshold) {
      points.splice(points.indexOf(weakest), 1)
      // A weak point is one to measure again: not one smaller than any
      // change that counts, which no confirmation could ever pass.
      if (weakest.probability <= splitThreshold && weakest.magnitude >= minMagnitude) weak.push(weakest)
      continue
    }
    const smallest = points.reduce((least, point) => point.magnitude < least.magnitude ? point : least)
    if (smallest.magnitude >= minMagnitude) break
    points.splice(points.indexOf(smallest), 1)
  }
  const sideless = ({ end, ...point }) => point
  return { points: points.map(sideless), weak: weak.sort((a, b) => a.index - b.index).map(sideless) }
}

function bestSplit (values, offset) {
  const q = qHat(values)
  let index = 0
  for (let tau = 1; tau < q.length; tau++) if (q[tau] > q[index]) index = tau
  return q[index] > 0 ? { index: index + offset, qHat: q[index] } : null
}

// The paper's own search, which Otava runs: the split tau and the end kappa
// of the second side both chosen, so that Y = values[tau..kappa) may stop
// short of the part's end. A regression and its fix then splits at the
// regression with the raised level alone on its right, where a split with
// every later point on its right mixes the raised level and the fixed one.
// Row sums of distances (each point's to the points before it) make each
// (tau, kappa) one step from the last: O(N^2) time and memory a part.
function bestSplitAnyEnd (values, offset) {
  const length = values.length
  const before = Array.from({ length }, (_, k) => {
    const sums = new Float64Array(k + 1)
    for (let i = 0; i < k; i++) sums[i + 1] = sums[i] + Math.abs(values[k] - values[i])
    return sums
  })
  let best = null
  let withinX = 0
  let inX = 0
  for (let tau = MIN_SIZE; tau <= length - MIN_SIZE; tau++) {
    for (; inX < tau; inX++) withinX += before[inX][inX]
    const n = tau
    let withinY = 0
    let cross = 0
    for (let kappa = tau + 1; kappa <= length; kappa++) {
      const added = before[kappa - 1]
      cross += added[tau]
      withinY += added[kappa - 1] - added[tau]
      const m = kappa - tau
      if (m < (kappa < length ? MIN_SIZE + 1 : MIN_SIZE)) continue
      const q = (n * m / (n + m)) * (2 * cross / (n * m) - 2 * withinX / (n * (n - 1)) - 2 * withinY / (m * (m - 1)))
      if (q > 0 && (best === null || q > best.qHat)) best = { index: tau + offset, qHat: q, end: kappa + offset }
    }
  }
  return best
}

// qHat at every split tau, X = values[0..tau): moving one point from Y to X
// updates the three sums, so the whole costs O(N^2) with no matrix kept.
function qHat (values) {
  const length = values.length
  const q = new Float64Array(length)
  let withinX = 0
  let withinY = 0
  for (let j = 0; j < length; j++) for (let k = j + 1; k < length; k++) withinY += Math.abs(values[j] - values[k])
  let cross = 0
  for (let tau = 1; tau < length; tau++) {
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

// mulberry32: seeded, so a series gives the same change points every run.
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

module.exports = { findChangePoints, detectChangePoints, qHat, generator, TESTS, ALPHA, SPLIT_FACTOR, PERMUTATIONS, PERMUTATION_ALPHA, MIN_SIZE }
