'use strict'

// The measuring half of bench:compare: each round starts a target from the
// base tree and from the head tree, each in a fresh process, and loads the
// two at the same time, each with its own autocannon instance. Whatever the
// machine does during a round (a neighbour's burst, a frequency step, the
// load generator's share of the cores) falls on both sides of its pair:
// measured one after the other, two copies of the same server disagreed
// far more than measured together (docs/ci-gate.md, "Gate a change against
// its base", has the figures). Which side is loaded first
// alternates ABBA over the rounds, so that any advantage of going first
// cancels too.

const path = require('node:path')
const { startTarget } = require('../../tooling/target-process')
const { taxedStart, stdoutFile, removeStdoutFile, requestHeaders, load, startLoad, runFigures, windowFigures } = require('../measure/load')

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
  const { entry, conditional, env, leaking, headers: targetHeaders = {}, stdout, processTree } = definition
  const servers = {}
  // A target whose stdout is a file (the logging story's) writes into one
  // of these, removed after.
  const stdoutFiles = Object.fromEntries(SIDES.map((side) => [side, stdoutFile(stdout, `compare-${side}-${target}`)]))
  try {
    // Both at once (nothing is measured yet): half the waiting per round.
    const started = await Promise.allSettled(order.map((side) => startTarget(path.resolve(trees[side], entry),
      { ...taxedStart(env, side === 'head' ? taxMicros : 0), stdout: stdoutFiles[side], processTree, cwd: trees[side] })))
    started.forEach(({ status, value }, i) => { if (status === 'fulfilled') servers[order[i]] = value })
    const failed = started.findIndex(({ status }) => status === 'rejected')
    if (failed !== -1) {
      const side = order[failed]
      throw Object.assign(new Error(`${side}'s ${target} did not start: ${started[failed].reason.message}`), { side })
    }
    const headers = {}
    for (const side of order) headers[side] = await requestHeaders(servers[side], { conditional, headers: targetHeaders })
    const pair = { target, round, first: order[0] }
    const measured = leaking
      ? await measureByCount(servers, headers, order, protocol)
      : await measureWindow(servers, headers, order, protocol)
    order.forEach((side, i) => { pair[side] = { target, round, side, ...measured[i] } })
    return pair
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()))
    for (const file of Object.values(stdoutFiles)) removeStdoutFile(file)
  }
}

/**
 * Load both servers at once for warm-up + duration seconds, and measure the
 * same window of `duration` seconds on both: CPU time from each server's
 * probe, read for both at the window's start and at its end, and the
 * responses that arrived in between. (Each autocannon run measuring
 * itself would not do: a run stops at its next once-a-second sample after
 * its time is up, so one side could run a second longer than the other,
 * alone and cheaper, and that round's pair would be off by a third.)
 */
async function measureWindow (servers, headers, order, protocol) {
  const loads = order.map((side) => startLoad(servers[side].url, headers[side], protocol.connections))
  try {
    await sleep(protocol.warmup * 1000)
    const before = await Promise.all(order.map((side) => servers[side].usage()))
    const started = process.hrtime.bigint()
    for (const recorder of loads) recorder.recording = true
    await sleep(protocol.duration * 1000)
    for (const recorder of loads) recorder.recording = false
    const after = await Promise.all(order.map((side) => servers[side].usage()))
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const results = await Promise.all(loads.map((recorder) => recorder.stop()))
    return loads.map((recorder, i) => windowFigures(recorder, results[i], before[i], after[i], seconds))
  } finally {
    // Stopped already unless something above threw.
    for (const recorder of loads) recorder.stop().catch(() => {})
  }
}

// A leaking target (slow) by request counts, as the bench measures it: both
// sides loaded at once, each measured over its own run.
async function measureByCount (servers, headers, order, protocol) {
  const both = (amount) => Promise.all(order.map((side) => load(servers[side].url, headers[side], protocol.connections, { amount })))
  if (protocol.warmupRequests > 0) await both(protocol.warmupRequests)
  const before = await Promise.all(order.map((side) => servers[side].usage()))
  const loads = await both(protocol.requests)
  const after = await Promise.all(order.map((side) => servers[side].usage()))
  return order.map((side, i) => runFigures(loads[i].result, before[i], after[i]))
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

module.exports = { runPairs, SIDES }
