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
// Otava's default threshold; a history is tested again on each side of
// every change, so each test is held strict.
const ALPHA = 0.001
const PERMUTATIONS = 199
const PERMUTATION_ALPHA = 1 / (PERMUTATIONS + 1)
const MIN_SIZE = 2
const SEED = 0x5eed

/**
 * [{ index (the first point after the change), qHat, probability }], in
 * series order. `test`: 'student' (alpha 0.001) or 'permutation' (alpha
 * 1/200, `permutations` shuffles from `seed`).
 */
function findChangePoints (series, { test = 'student', alpha, permutations = PERMUTATIONS, seed = SEED } = {}) {
  if (!TESTS.includes(test)) throw new TypeError(`test: one of ${TESTS.join(', ')}`)
  const threshold = alpha ?? (test === 'student' ? ALPHA : PERMUTATION_ALPHA)
  const values = Float64Array.from(series)
  const random = generator(seed)
  const found = []
  const best = new Map()
  for (;;) {
    const windows = partsBetween(found, values.length)
    let candidate = null
    let part = null
    for (const [from, to] of windows) {
      const key = `${from}-${to}`
      if (!best.has(key)) best.set(key, bestSplit(values.subarray(from, to), from))
      const split = best.get(key)
      if (split && (!candidate || split.qHat > candidate.qHat)) [candidate, part] = [split, [from, to]]
    }
    if (!candidate) break
    const probability = test === 'student'
      ? tTestAt(values, candidate.index, part)
      : permutationProbability(values, windows, candidate.qHat, permutations, random)
    if (probability > threshold) break
    found.push({ ...candidate, probability })
  }
  return test === 'student' ? merge(values, found, threshold) : found.sort((a, b) => a.index - b.index)
}

function partsBetween (points, length) {
  const bounds = [0, ...points.map((point) => point.index).sort((a, b) => a - b), length]
  return bounds.slice(1).map((end, i) => [bounds[i], end])
}

function tTestAt (values, index, [from, to]) {
  return studentTTest(values.subarray(from, index), values.subarray(index, to)).p
}

// Otava's merge: each change point tested again between its neighbours, the
// weakest dropped while it does not stand (a split found early may not hold
// once the parts beside it are cut).
function merge (values, found, threshold) {
  const points = [...found].sort((a, b) => a.index - b.index)
  for (;;) {
    const bounds = [0, ...points.map((point) => point.index), values.length]
    points.forEach((point, i) => { point.probability = tTestAt(values, point.index, [bounds[i], bounds[i + 2]]) })
    const weakest = points.reduce((worst, point) => worst === null || point.probability > worst.probability ? point : worst, null)
    if (weakest === null || weakest.probability <= threshold) return points
    points.splice(points.indexOf(weakest), 1)
  }
}

function bestSplit (values, offset) {
  const q = qHat(values)
  let index = 0
  for (let tau = 1; tau < q.length; tau++) if (q[tau] > q[index]) index = tau
  return q[index] > 0 ? { index: index + offset, qHat: q[index] } : null
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

module.exports = { findChangePoints, qHat, TESTS, ALPHA, PERMUTATIONS, PERMUTATION_ALPHA, MIN_SIZE }
