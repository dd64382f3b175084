'use strict'

// Several servers measured side by side: each started in a fresh process,
// all loaded at the same time, each by its own autocannon instance, and
// measured over the same window. Whatever the machine does meanwhile (a
// neighbour's burst, a frequency step, the load generator's share of the
// cores) falls on all of them, so their ratios hold where their figures
// measured one after the other do not (docs/ci-gate.md, "Gate a change
// against its base", says why). bench:compare loads a target's base
// and head so (bench/compare/paired-run.js); verify loads yours, fixed and
// fast so (workshop/speed.js).

const { startTarget } = require('../../tooling/target-process')
const { taxedStart, stdoutFile, removeStdoutFile, requestHeaders, load, startLoad, runFigures, windowFigures } = require('./load')

/**
 * Start every side of `sides` ([{ name, entry, cwd, taxMicros, label,
 * ...definition }], `definition` a target's settings as
 * bench/protocol/targets.js has them), all at once, in the order given,
 * which is also the order their loads start in; load them together and
 * measure each: `leaking` sides (all or none) by the counts of `protocol`
 * ({ connections, warmup, duration, warmupRequests, requests }), the
 * others over one window of `duration` seconds after `warmup`. `label`
 * names the file a side whose stdout is a file writes into (removed
 * after). Resolves to { [name]: figures, as bench/measure/load.js figures
 * a run }. A side that does not start rejects with an error whose `side`
 * is its name and whose `cause` is the start's error; every side started
 * is stopped, whatever happens.
 */
async function measureSideBySide (sides, protocol) {
  const leaking = sides.filter((side) => side.leaking).length
  if (leaking !== 0 && leaking !== sides.length) throw new Error('measureSideBySide: sides measured by counts and by time cannot share a window')
  const servers = {}
  const stdoutFiles = Object.fromEntries(sides.map((side) => [side.name, stdoutFile(side.stdout, side.label ?? side.name)]))
  try {
    // All at once (nothing is measured yet): less waiting per round.
    const started = await Promise.allSettled(sides.map((side) => startTarget(side.entry,
      { ...taxedStart(side.env, side.taxMicros), stdout: stdoutFiles[side.name], processTree: side.processTree, cwd: side.cwd })))
    started.forEach(({ status, value }, i) => { if (status === 'fulfilled') servers[sides[i].name] = value })
    const failed = started.findIndex(({ status }) => status === 'rejected')
    if (failed !== -1) {
      const { reason } = started[failed]
      throw Object.assign(new Error(`${sides[failed].name} did not start: ${reason.message}`), { side: sides[failed].name, cause: reason })
    }
    const order = sides.map((side) => side.name)
    const headers = {}
    for (const side of sides) headers[side.name] = await requestHeaders(servers[side.name], { conditional: side.conditional, headers: side.headers })
    const measured = leaking
      ? await measureByCount(servers, headers, order, protocol)
      : await measureWindow(servers, headers, order, protocol)
    return Object.fromEntries(order.map((name, i) => [name, measured[i]]))
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()))
    for (const file of Object.values(stdoutFiles)) removeStdoutFile(file)
  }
}

/**
 * Load every server at once for warm-up + duration seconds, and measure the
 * same window of `duration` seconds on each: CPU time from each server's
 * probe, read for all at the window's start and at its end, and the
 * responses that arrived in between. (Each autocannon run measuring
 * itself would not do: a run stops at its next once-a-second sample after
 * its time is up, so one side could run a second longer than another,
 * alone and cheaper, and that round's ratio would be off by a third.)
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

// Leaking servers (slow) by request counts, as the bench measures them: all
// loaded at once, each measured over its own run.
async function measureByCount (servers, headers, order, protocol) {
  const all = (amount) => Promise.all(order.map((side) => load(servers[side].url, headers[side], protocol.connections, { amount })))
  if (protocol.warmupRequests > 0) await all(protocol.warmupRequests)
  const before = await Promise.all(order.map((side) => servers[side].usage()))
  const loads = await all(protocol.requests)
  const after = await Promise.all(order.map((side) => servers[side].usage()))
  return order.map((side, i) => runFigures(loads[i].result, before[i], after[i]))
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

module.exports = { measureSideBySide }
