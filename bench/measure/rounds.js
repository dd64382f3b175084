'use strict'

// The run that measures: every target, round by round, under the same autocannon load, each in a fresh process.

const { startTarget } = require('../../tooling/target-process')
const { taxedStart, stdoutFile, removeStdoutFile, requestHeaders, load, runFigures } = require('./load')
const { describeMachine, describeVersions, currentCommit } = require('./machine')

// Runs `protocol` ({ targets, rounds, connections, warmup, duration, warmupRequests, requests }) over `targets`, the definitions by name.
// Rounds alternate the targets' order (forwards, then backwards) so that neighbours in time are compared.
// `cpuTax` ({ target: micros }) preloads cpu-tax.js into a target, a regression made to order; `onRun(run)` follows each run.
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
  const stdoutTo = stdoutFile(stdout, `bench-${target}`)
  const server = await startTarget(entry, { ...taxedStart(env, taxMicros), stdout: stdoutTo, processTree })
  try {
    const headers = await requestHeaders(server, { conditional, headers: targetHeaders })
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
