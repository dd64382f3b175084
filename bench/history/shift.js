'use strict'

// How far a series moved at a change point: the Hodges-Lehmann shift and its
// 95 % interval (Hollander, Wolfe and Chicken, section 4.3).

const { median } = require('../judge/stats')

const Z = 1.959964

function shift (before, after) {
  const differences = []
  for (const y of after) for (const x of before) differences.push(y - x)
  differences.sort((a, b) => a - b)
  const n = before.length
  const m = after.length
  const pairs = n * m
  const difference = median(differences)
  const k = Math.floor(pairs / 2 - Z * Math.sqrt(pairs * (n + m + 1) / 12))
  const interval = k >= 1 ? [differences[k - 1], differences[pairs - k]] : [differences[0], differences[pairs - 1]]
  const base = median(before)
  const percent = (value) => base === 0 ? null : value / Math.abs(base) * 100
  return { difference, interval, percent: percent(difference), percentInterval: base === 0 ? null : interval.map(percent) }
}

module.exports = { shift }
