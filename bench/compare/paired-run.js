'use strict'

// bench:compare's measuring: each round loads a target's base and head at
// the same time, so the machine's noise falls on both, and which loads
// first alternates ABBA (docs/ci-gate.md, "Gate a change against its base").

const path = require('node:path')
const { measureSideBySide } = require('../measure/side-by-side')

const SIDES = ['base', 'head']

// Resolves to [{ target, round, first, base, head }]; `cpuTax` taxes only the head, to calibrate.
async function runPairs (protocol, { definitions, trees, cpuTax = {}, onRound = () => {} }) {
  const pairs = []
  for (let round = 1; round <= protocol.rounds; round++) {
    const first = [1, 0].includes(round % 4) ? 'base' : 'head'
    const order = first === 'base' ? SIDES : [...SIDES].reverse()
    for (const target of protocol.targets) {
      const pair = await runPair(target, definitions[target], round, order, protocol, { trees, taxMicros: cpuTax[target] })
      pairs.push(pair)
      onRound(pair)
    }
  }
  return pairs
}

async function runPair (target, definition, round, order, protocol, { trees, taxMicros }) {
  const sides = order.map((side) => ({
    ...definition,
    name: side,
    entry: path.resolve(trees[side], definition.entry),
    cwd: trees[side],
    taxMicros: side === 'head' ? taxMicros : 0,
    label: `compare-${side}-${target}`
  }))
  let measured
  try {
    measured = await measureSideBySide(sides, protocol)
  } catch (err) {
    if (err.side === undefined) throw err
    throw Object.assign(new Error(`${err.side}'s ${target} did not start: ${err.cause.message}`), { side: err.side })
  }
  const pair = { target, round, first: order[0] }
  for (const side of order) pair[side] = { target, round, side, ...measured[side] }
  return pair
}

module.exports = { runPairs, SIDES }
