'use strict'

// A series' change points (change-points.js), each with the points on either side and its size
// (shift.js), and the line that prints one.

const { detectChangePoints, ALPHA, SPLIT_FACTOR } = require('./change-points')
const { shift } = require('./shift')
const { median } = require('../judge/stats')

// Otava's first pass: a split at ten times the threshold that the merge
// drops is a weak change point, shown to be measured (bench:history --
// confirm), never as a change.
const WEAK_ALPHA = ALPHA * SPLIT_FACTOR

// Each change point, weak ones too (`weak: true`), with the points on
// either side it was tested between: a change point's run to its
// neighbours, a weak one's to the neighbours it had when the merge dropped
// it. `minMagnitude`: see findChangePoints.
function describeChanges (series, { test = 'student', minMagnitude = 0 } = {}) {
  const { points, weak } = detectChangePoints(series, { test, minMagnitude })
  return [...points.map((point) => ({ ...point, weak: false })), ...weak.map((point) => ({ ...point, weak: true }))]
    .sort((a, b) => a.index - b.index)
    .map((point) => {
      const before = series.slice(point.from, point.index)
      const after = series.slice(point.index, point.to)
      return {
        index: point.index,
        weak: point.weak,
        pValue: point.probability,
        qHat: point.qHat,
        before: { from: point.from, to: point.index, median: median(before) },
        after: { from: point.index, to: point.to, median: median(after) },
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
    `then ${change.after.from} to ${change.after.to - 1}, median ${figure(change.after.median)}: ${size}, ${formatP(change.pValue)}`
}

// Two significant digits: Student's p runs to 1e-17 and far below. Under
// 1e-300 a double no longer holds it (it ends at 0), so the figure says
// only that.
function pFigure (p) {
  if (p < 1e-300) return '< 1e-300'
  return p >= 0.001 ? p.toFixed(3) : p.toPrecision(2)
}

const formatP = (p) => p < 1e-300 ? `p ${pFigure(p)}` : `p = ${pFigure(p)}`

// Six significant digits: a count of millions shows a step of 0.1 %.
function figure (value) {
  return Number(value.toPrecision(6)).toLocaleString('en-US', { maximumFractionDigits: 6 })
}

function signed (value) {
  const digits = Math.abs(value) >= 10 ? 1 : 3
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`
}

module.exports = { describeChanges, formatChange, figure, signed, formatP, pFigure, WEAK_ALPHA }
