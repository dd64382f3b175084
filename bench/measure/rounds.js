'use strict'

// The run that measures: every target, round by round, under the same
// autocannon load, each in a fresh process; resolves to every figure.
// Judging is bench/judge/, printing bench/print/, the command bench/index.js.

const { startTarget } = require('../../tooling/target-process')
const { taxedStart, stdoutFile, removeStdoutFile, requestHeaders, load, runFigures } = require('./load')
const { describeMachine, describeVersions, currentCommit } = require('./machine')

/**
 * Run the comparison `protocol` describes: { targets, connections, warmup,
 * duration, warmupRequests, requests, rounds }, with `targets` the
 * definitions by name (bench/protocol/targets.js's and the user's own). Rounds
 * alternate the targets' order (forwards, then backwards) so that
 * neighbours in time are compared. `cpuTax` ({ target: micros }) adds that
 * much busy CPU time to each request of a target, through cpu-tax.js
 * preloaded into it: a regression made to order, for calibrating the gate.
 * `onRun(run)` is called after each target's run (what a command prints
 * as it goes, progress included, is the command's); `machine` is the
 * machine as described before the run (its load average is the start's).
 * Resolves to { protocol, targets, cpuTax, machine, versions, commit,
 * started, finished, runs }.
 */
async function runComparison (protocol, { targets, cpuTax = {}, onRun = () => {}, machine = describeMachine() }) {
  const started = new Date().toISOString()
  const runs = []
  for (let round = 1; round <= protocol.rounds; round++) {
    const order = round % 2 === 1 ? protocol.targets : [...protocol.targets].reverse()
    for (const target of order) {
      const run = await runTarget(target, targets[target], round, protocol, { taxMicros: cpuTax[target] })
      runs.push(run)
      onRun(run)
    }
  }
  return { protocol, targets, cpuTax, machine, versions: describeVersions(), commit: currentCommit(), started, finished: new Date().toISOString(), runs }
}

async function runTarget (target, { entry, conditional, env, leaking, headers: targetHeaders = {}, stdout, processTree }, round, protocol, { taxMicros }) {
  // A target whose stdout is a file writes into this one, removed after.
  const stdoutTo = stdoutFile(stdout, `bench-${target}`)
  const server = await startTarget(entry, { ...taxedStart(env, taxMicros), stdout: stdoutTo, processTree })
  try {
    const headers = await requestHeaders(server, { conditional, headers: targetHeaders })
    // A leaking target gets a count of requests, the others seconds.
    const warmup = leaking ? { amount: protocol.warmupRequests } : { duration: protocol.warmup }
    const measured = leaking ? { amount: protocol.requests } : { duration: protocol.duration }
    const warmedUp = warmup.amount > 0 || warmup.duration > 0
      ? await load(server.url, headers, protocol.connections, warmup)
      : { perSecond: [] }
    const before = await server.usage()
    const { result, perSecond } = await load(server.url, headers, protocol.connections, measured)
    const after = await server.usage()
    return { target, round, ...runFigures(result, before, after), warmupPerSecond: warmedUp.perSecond, perSecond }
  } finally {
    await server.stop()
    removeStdoutFile(stdoutTo)
  }
}

module.exports = { runComparison }
