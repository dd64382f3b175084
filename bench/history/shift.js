'use strict'

// How far a series moved at a change point: the Hodges-Lehmann estimate of
// the shift between the points before it and the points after (the median
// of every difference after - before) and its confidence interval from the
// Mann-Whitney statistic's distribution (normal approximation), as in
// Hollander, Wolfe and Chicken, "Nonparametric Statistical Methods",
// section 4.3. No assumption about the noise but that both sides share
// its shape.

const { median } = require('../judge/stats')

// The two-sided interval's z: 95 %.
const Z = 1.959964

/**
 * The shift from `before` to `after` (numbers): { difference, interval:
 * [low, high], percent and percentInterval (the same over before's median,
 * null where that median is 0) }.
 */
function shift (before, after) {
  const differences = []
  for (const y of after) for (const x of before) differences.push(y - x)
  differences.sort((a, b) => a - b)
  const n = before.length
  const m = after.length
  const pairs = n * m
  const difference = median(differences)
  // The rank of the interval's ends among the sorted differences (from 1).
  const k = Math.floor(pairs / 2 - Z * Math.sqrt(pairs * (n + m + 1) / 12))
  const interval = k >= 1 ? [differences[k - 1], differences[pairs - k]] : [differences[0], differences[pairs - 1]]
  const base = median(before)
  const percent = (value) => base === 0 ? null : value / Math.abs(base) * 100
  return { difference, interval, percent: percent(difference), percentInterval: base === 0 ? null : interval.map(percent) }
}

module.exports = { shift }
