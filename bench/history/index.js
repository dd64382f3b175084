'use strict'

// `npm run bench:history -- changes FILE [--json]`: the change points of a
// series (change-points.js) and the size of each (shift.js). FILE is a JSON
// array of numbers in the order they were measured.

const fs = require('node:fs')
const { runAsProcess, parseCommandLine, UsageError } = require('../../tooling/command')
const { findChangePoints, ALPHA, PERMUTATIONS, MIN_SIZE } = require('./change-points')
const { shift } = require('./shift')
const { median } = require('../judge/stats')

const USAGE = `Usage: npm run bench:history -- changes FILE [--json]

The change points of a series, by E-divisive means (Matteson and James,
2014): where the points before and after differ most, kept where none
of ${PERMUTATIONS} shuffles of the points does as well (p = ${ALPHA}), then again on
each side. FILE is a JSON array of numbers, in the order they were
measured; a change needs ${MIN_SIZE} points on either side.
For each change point: the index of the first point after it (0-based),
the shift (the median of every difference after - before, with its 95 %
interval), in % of the median before, and the p-value.
  --json   a JSON array, one object per change point: { index, pValue,
           qHat, before: { from, to, median }, after: { from, to, median },
           shift: { difference, interval, percent, percentInterval } }
           (from and to: indices, to excluded)
`

// Each change point with the points on either side up to its neighbours.
function describeChanges (series) {
  const points = findChangePoints(series)
  const bounds = [0, ...points.map((point) => point.index), series.length]
  return points.map((point, i) => {
    const before = series.slice(bounds[i], point.index)
    const after = series.slice(point.index, bounds[i + 2])
    return {
      index: point.index,
      pValue: point.probability,
      qHat: point.qHat,
      before: { from: bounds[i], to: point.index, median: median(before) },
      after: { from: point.index, to: bounds[i + 2], median: median(after) },
      shift: shift(before, after)
    }
  })
}

function readSeries (file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`)
  }
  let series
  try {
    series = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`${file} is not JSON: ${err.message}`)
  }
  if (!Array.isArray(series) || !series.every(Number.isFinite)) throw new UsageError(`${file} is not a JSON array of numbers`)
  return series
}

function formatChange (change) {
  const { shift: { difference, interval, percent, percentInterval } } = change
  const size = percent === null
    ? `${signed(difference)} (${signed(interval[0])} to ${signed(interval[1])})`
    : `${signed(percent)} % (${signed(percentInterval[0])} to ${signed(percentInterval[1])} %)`
  return `change at index ${change.index}: points ${change.before.from} to ${change.before.to - 1}, median ${figure(change.before.median)}, ` +
    `then ${change.after.from} to ${change.after.to - 1}, median ${figure(change.after.median)}: ${size}, p = ${change.pValue.toFixed(3)}`
}

// Six significant digits: a count of millions shows a step of 0.1 %.
function figure (value) {
  return Number(value.toPrecision(6)).toLocaleString('en-US', { maximumFractionDigits: 6 })
}

function signed (value) {
  const digits = Math.abs(value) >= 10 ? 1 : 3
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`
}

async function main (argv, { stdout }) {
  const { values, positionals } = parseCommandLine(argv, { json: { type: 'boolean', default: false } }, { positionals: true })
  const [subcommand, file, ...rest] = positionals
  if (subcommand !== 'changes') throw new UsageError(subcommand === undefined ? 'name a subcommand: changes' : `unknown subcommand "${subcommand}"`)
  if (file === undefined) throw new UsageError('changes needs a FILE')
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  const series = readSeries(file)
  const changes = describeChanges(series)
  if (values.json) stdout.write(JSON.stringify(changes, null, 2) + '\n')
  else stdout.write(changes.length === 0 ? `no change point in ${series.length} points\n` : changes.map(formatChange).join('\n') + '\n')
  return 0
}

const command = { name: 'bench:history', usage: USAGE, main }

module.exports = { describeChanges, command }

if (require.main === module) runAsProcess(command)
