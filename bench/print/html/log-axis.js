'use strict'

// Where a chart's logarithmic axis puts a run's figures, zeros included.
// A logarithmic axis has no place for 0, yet runs have zeros: autocannon
// counts latencies in whole milliseconds, so a server answering within one
// reads 0 ms; a second can pass without a response. Left out, they would
// vanish from the page while the table under it still has them. So a 0 is
// drawn at a floor below every other value, and the floor's tick says what
// it stands for ("< 1 ms", "0"); every other tick is a round number.

// The floor sits at half the smallest positive value, and never above half
// a unit: below the tick of 1, so a 0 never looks like a measured 1.
const FLOOR_AT_MOST = 0.5
// Room above the largest value and below the lowest (the floor), as a
// factor, so that a marker drawn there is not cut by the chart's edge.
const MARGIN = 1.6

/**
 * The logarithmic axis for `values` (numbers; null where there is no
 * figure): { floor, zeroLabel, range: [min, max], ticks: [[at, label]] }.
 * `floor` is where a 0 is drawn, labelled `zeroLabel`, and null where no
 * value is 0.
 */
function logAxis (values, zeroLabel) {
  const figures = values.filter(Number.isFinite)
  const positives = figures.filter((v) => v > 0)
  // Infinity where there is none.
  const smallest = Math.min(...positives)
  const floor = figures.includes(0) ? Math.min(FLOOR_AT_MOST, smallest / 2) : null
  const bottom = floor ?? (positives.length > 0 ? smallest : 1)
  const top = positives.length > 0 ? Math.max(...positives) : bottom
  const range = [bottom / MARGIN, top * MARGIN]
  // Above a floor, no round tick below 1 where no figure is: the floor
  // stands for anything under one unit, and a tick of 0.8 above it would
  // say otherwise.
  const lowestTick = floor === null ? range[0] : Math.min(1, smallest)
  const ticks = roundTicks(range, lowestTick).map((at) => [at, tickLabel(at)])
  return { floor, zeroLabel, range, ticks: floor === null ? ticks : [[floor, zeroLabel], ...ticks] }
}

/**
 * Where `axis` (logAxis) draws `value`: the value itself, the floor for 0,
 * null for no figure.
 */
function drawnAt (value, axis) {
  if (!Number.isFinite(value) || value < 0) return null
  return value === 0 ? axis.floor : value
}

// 1, 2 and 5 times the powers of ten within `range`, from `lowest` up
// (every digit across a decade or less, which would otherwise have one
// tick or none; the powers alone across more than four decades, which
// would crowd).
function roundTicks ([min, max], lowest) {
  const decades = Math.log10(max / min)
  const steps = decades <= 1 ? [1, 2, 3, 4, 5, 6, 7, 8, 9] : decades <= 4 ? [1, 2, 5] : [1]
  const ticks = []
  for (let power = Math.floor(Math.log10(min)); power <= Math.ceil(Math.log10(max)); power++) {
    for (const step of steps) {
      // toPrecision: 3 * 0.1 is 0.30000000000000004.
      const at = Number((step * 10 ** power).toPrecision(12))
      if (at >= Math.max(min, lowest) && at <= max) ticks.push(at)
    }
  }
  return ticks
}

function tickLabel (at) {
  return at >= 1 ? at.toLocaleString('en-US') : String(at)
}

module.exports = { logAxis, drawnAt }
