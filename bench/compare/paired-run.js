'use strict'

// The measuring half of bench:compare: each round starts a target from the
// base tree and from the head tree, each in a fresh process, and loads the
// two at the same time, each with its own autocannon instance
// (bench/measure/side-by-side.js). Whatever the machine does during a round
// (a neighbour's burst, a frequency step, the load generator's share of the
// cores) falls on both sides of its pair: measured one after the other, two
// copies of the same server disagreed far more than measured together
// (docs/ci-gate.md, "Gate a change against its base", says why).
// Which side is loaded first alternates ABBA over the rounds, so that any
// advantage of going first cancels too.

const path = require('node:path')
const { measureSideBySide } = require('../measure/side-by-side')

const SIDES = ['base', 'head']

/**
 * Run `protocol` ({ targets, connections, warmup, duration, warmupRequests,
 * requests, rounds }) with `definitions` (bench/protocol/targets.js's and
 * the user's), each target started from `trees.base` and `trees.head` (folders
 * holding the same layout). `cpuTax` ({ target: micros }) taxes the head's
 * side only: a regression made to order, for calibration. `onRound(pair)`
 * is called after each round of each target. Resolves to the pairs:
 * [{ target, round, first, base, head }], base and head each a run as
 * bench/measure/load.js figures it. A server that does not start rejects with an
 * error whose `side` says which.
 */
async function runPairs (protocol, { definitions, trees, cpuTax = {}, onRound = () => {} }) {
  const pairs = []
  for (let round = 1; round <= protocol.rounds; round++) {
    // ABBA: base first in rounds 1 and 4, head first in 2 and 3, and so on.
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
