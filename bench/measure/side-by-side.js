'use strict'

// Several servers measured side by side, each in a fresh process, loaded at the same time by its own autocannon over the same window:
// whatever the machine does meanwhile falls on all of them, so their ratios hold (docs/ci-gate.md, "Gate a change against its base").

const { startTarget } = require('../../tooling/target-process')
const { taxedStart, stdoutFile, removeStdoutFile, requestHeaders, load, startLoad, runFigures, windowFigures } = require('./load')

// Starts `sides` ([{ name, entry, cwd, taxMicros, label, ...a target's definition }]) at once and resolves to { [name]: figures }: `leaking`
// sides (all or none) by `protocol`'s request counts, the others over one window. A side that fails to start rejects with `side` and `cause`.
async function measureSideBySide (sides, protocol) {
  const leaking = sides.filter((side) => side.leaking).length
  if (leaking !== 0 && leaking !== sides.length) throw new Error('measureSideBySide: sides measured by counts and by time cannot share a window')
  const servers = {}
  const stdoutFiles = Object.fromEntries(sides.map((side) => [side.name, stdoutFile(side.stdout, side.label ?? side.name)]))
  try {
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

// One window, timed here for all: an autocannon run timing itself stops at its next once-a-second tick, so one side could run alone and cheaper.
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
    for (const recorder of loads) recorder.stop().catch(() => {})
  }
}

// Leaking servers (slow) by request counts, as the bench measures them: all loaded at once, each measured over its own run.
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
