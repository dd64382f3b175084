'use strict'

// The measuring half of bench:compare: each round starts a target from the
// base tree and from the head tree, each in a fresh process, and loads the
// two at the same time, each with its own autocannon instance. Whatever the
// machine does during a round (a neighbour's burst, a frequency step, the
// load generator's share of the cores) falls on both sides of its pair.
// Measured here: CPU per request of a server moved by 40 % from one
// second to the next, while base and head loaded side by side moved
// together (docs/ci-gate.md, "Gate a change against its base", has the
// figures). Which side starts and is loaded first alternates ABBA over the
// rounds, so that any advantage of going first cancels too.

const path = require('node:path')
const { startTarget } = require('./target-process')
const { taxedStart, requestHeaders, load, summarizeRun } = require('./run')

const SIDES = ['base', 'head']

/**
 * Run `protocol` ({ targets, connections, warmup, duration, warmupRequests,
 * requests, rounds }) with `definitions` (goals.js's TARGETS and the
 * user's), each target started from `trees.base` and `trees.head` (folders
 * holding the same layout). `cpuTax` ({ target: micros }) taxes the head's
 * side only: a regression made to order, for calibration. `onRound(pair)`
 * is called after each round of each target. Resolves to the pairs:
 * [{ target, round, first, base, head }], base and head each a run as
 * bench/run.js summarizes it. A server that does not start rejects with an
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
  const { entry, conditional, env, leaking, headers: targetHeaders = {}, processTree } = definition
  const servers = {}
  try {
    for (const side of order) {
      const start = taxedStart(env, side === 'head' ? taxMicros : 0)
      servers[side] = await startTarget(path.resolve(trees[side], entry), { ...start, processTree, cwd: trees[side] })
        .catch((err) => { throw Object.assign(new Error(`${side}'s ${target} did not start: ${err.message}`), { side }) })
    }
    const headers = {}
    for (const side of order) headers[side] = await requestHeaders(servers[side], { conditional, headers: targetHeaders })
    // A leaking target gets a count of requests, the others seconds.
    const warmup = leaking ? { amount: protocol.warmupRequests } : { duration: protocol.warmup }
    const measured = leaking ? { amount: protocol.requests } : { duration: protocol.duration }
    const both = (phase) => Promise.all(order.map((side) => load(servers[side].url, headers[side], protocol.connections, phase)))
    const warmedUp = warmup.amount > 0 || warmup.duration > 0 ? await both(warmup) : order.map(() => ({ perSecond: [] }))
    const before = await Promise.all(order.map((side) => servers[side].usage()))
    const loads = await both(measured)
    const after = await Promise.all(order.map((side) => servers[side].usage()))
    const pair = { target, round, first: order[0] }
    order.forEach((side, i) => {
      pair[side] = summarizeRun(target, round, loads[i].result, { warmup: warmedUp[i].perSecond, measured: loads[i].perSecond }, before[i], after[i])
    })
    return pair
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()))
  }
}

module.exports = { runPairs, SIDES }
