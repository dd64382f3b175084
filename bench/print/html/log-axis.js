'use strict'

// A chart's logarithmic axis, zeros included. A log axis has no place for 0, yet runs have zeros
// (latency in whole milliseconds, a second without a response), so a 0 is drawn at a floor below
// every value and below 1, its tick saying what it stands for ("< 1 ms", "0"). Above a floor, no
// tick under 1 comes below the smallest figure: the floor stands for anything under one unit.

const FLOOR_AT_MOST = 0.5
const MARGIN = 1.6

function logAxis (values, zeroLabel) {
  const figures = values.filter(Number.isFinite)
  const positives = figures.filter((v) => v > 0)
  const smallest = Math.min(...positives)
  const floor = figures.includes(0) ? Math.min(FLOOR_AT_MOST, smallest / 2) : null
  const bottom = floor ?? (positives.length > 0 ? smallest : 1)
  const top = positives.length > 0 ? Math.max(...positives) : bottom
  const range = [bottom / MARGIN, top * MARGIN]
  const lowestTick = floor === null ? range[0] : Math.min(1, smallest)
  const ticks = roundTicks(range, lowestTick).map((at) => [at, tickLabel(at)])
  return { floor, zeroLabel, range, ticks: floor === null ? ticks : [[floor, zeroLabel], ...ticks] }
}

function drawnAt (value, axis) {
  if (!Number.isFinite(value) || value < 0) return null
  return value === 0 ? axis.floor : value
}

function roundTicks ([min, max], lowest) {
  const decades = Math.log10(max / min)
  const steps = decades <= 1 ? [1, 2, 3, 4, 5, 6, 7, 8, 9] : decades <= 4 ? [1, 2, 5] : [1]
  const ticks = []
  for (let power = Math.floor(Math.log10(min)); power <= Math.ceil(Math.log10(max)); power++) {
    for (const step of steps) {
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
