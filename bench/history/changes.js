'use strict'

// A series' change points (change-points.js), each with the points on either side and its size
// (shift.js), and the line that prints one.

const { findChangePoints, ALPHA } = require('./change-points')
const { shift } = require('./shift')
const { median } = require('../judge/stats')

// Otava's first pass: a split at ten times the threshold is a weak change
// point, shown to be measured (bench:history -- confirm), never as a change.
const WEAK_ALPHA = ALPHA * 10

// Each change point with the points on either side up to its neighbours;
// with Student's test, the weak ones too (`weak: true`), where no change
// point stands within one point of them.
function describeChanges (series, { test = 'student' } = {}) {
  const strong = findChangePoints(series, { test }).map((point) => ({ ...point, weak: false }))
  const weak = test !== 'student'
    ? []
    : findChangePoints(series, { test, alpha: WEAK_ALPHA })
      .filter((point) => strong.every((other) => Math.abs(other.index - point.index) > 1))
      .map((point) => ({ ...point, weak: true }))
  const points = [...strong, ...weak].sort((a, b) => a.index - b.index)
  const bounds = [0, ...points.map((point) => point.index), series.length]
  return points.map((point, i) => {
    const before = series.slice(bounds[i], point.index)
    const after = series.slice(point.index, bounds[i + 2])
    return {
      index: point.index,
      weak: point.weak,
      pValue: point.probability,
      qHat: point.qHat,
      before: { from: bounds[i], to: point.index, median: median(before) },
      after: { from: point.index, to: bounds[i + 2], median: median(after) },
      shift: shift(before, after)
    }
  })
}

function formatChange (change) {
  const { shift: { difference, interval, percent, percentInterval } } = change
  const size = percent === null
    ? `${signed(difference)} (${signed(interval[0])} to ${signed(interval[1])})`
    : `${signed(percent)} % (${signed(percentInterval[0])} to ${signed(percentInterval[1])} %)`
  return `${change.weak ? 'weak change' : 'change'} at index ${change.index}: points ${change.before.from} to ${change.before.to - 1}, median ${figure(change.before.median)}, ` +
    `then ${change.after.from} to ${change.after.to - 1}, median ${figure(change.after.median)}: ${size}, p = ${formatP(change.pValue)}`
}

// Two significant digits: Student's p runs to 1e-17.
function formatP (p) {
  return p >= 0.001 ? p.toFixed(3) : p.toPrecision(2)
}

// Six significant digits: a count of millions shows a step of 0.1 %.
function figure (value) {
  return Number(value.toPrecision(6)).toLocaleString('en-US', { maximumFractionDigits: 6 })
}

function signed (value) {
  const digits = Math.abs(value) >= 10 ? 1 : 3
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`
}

module.exports = { describeChanges, formatChange, figure, signed, formatP, WEAK_ALPHA }
