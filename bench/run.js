'use strict'

// The measuring half of the benchmark: run every target, round by round,
// under the same autocannon load, and return every figure. Rendering lives
// in report.js, the command in index.js.

const os = require('node:os')
const http = require('node:http')
const autocannon = require('autocannon')
const { TARGETS } = require('./goals')
const { startTarget } = require('./target-process')

/**
 * Run the comparison `protocol` describes: { targets, connections, warmup,
 * duration, rounds }. Rounds alternate the targets' order (forwards, then
 * backwards) so that neighbours in time are compared. `onRun(run)` is called
 * after each target's run; `progress` decides whether autocannon draws its
 * progress bar. Resolves to { protocol, machine, started, finished, runs }.
 */
async function runComparison (protocol, { onRun = () => {}, progress = false } = {}) {
  const started = new Date().toISOString()
  const runs = []
  for (let round = 1; round <= protocol.rounds; round++) {
    const order = round % 2 === 1 ? protocol.targets : [...protocol.targets].reverse()
    for (const target of order) {
      const run = await runTarget(target, round, protocol, progress)
      runs.push(run)
      onRun(run)
    }
  }
  return { protocol, machine: describeMachine(), started, finished: new Date().toISOString(), runs }
}

async function runTarget (target, round, protocol, progress) {
  const { entry, conditional, env } = TARGETS[target]
  const server = await startTarget(entry, { env })
  try {
    const headers = conditional ? { 'if-none-match': await currentEtag(server.url) } : {}
    if (protocol.warmup > 0) await load(server.url, headers, protocol.connections, protocol.warmup)
    const cpuBefore = server.cpuMillis()
    const { result, perSecond } = await load(server.url, headers, protocol.connections, protocol.duration,
      progress && `${target} (round ${round}/${protocol.rounds})`)
    const cpuAfter = server.cpuMillis()
    return summarizeRun(target, round, result, perSecond, cpuBefore, cpuAfter, server.peakRssBytes())
  } finally {
    await server.stop()
  }
}

// One autocannon run; resolves to its result and the responses per second.
function load (url, headers, connections, duration, progressLabel) {
  return new Promise((resolve, reject) => {
    const perSecond = []
    const instance = autocannon({ url, headers, connections, duration }, (err, result) => {
      if (err) reject(err)
      else resolve({ result, perSecond })
    })
    // autocannon ticks once a second, plus once more when it stops: keep the
    // whole seconds only.
    instance.on('tick', ({ counter }) => { if (perSecond.length < Math.max(1, Math.floor(duration))) perSecond.push(counter) })
    if (progressLabel) {
      autocannon.track(instance, {
        renderProgressBar: true,
        renderResultsTable: false,
        progressBarString: `  ${progressLabel} [:bar] :percent`
      })
    }
  })
}

function summarizeRun (target, round, result, perSecond, cpuBefore, cpuAfter, peakRssBytes) {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats || {})
    .map(([code, { count }]) => [code, Number(count)]))
  const responses = Object.values(statuses).reduce((sum, count) => sum + count, 0)
  const count = (test) => Object.entries(statuses).filter(([code]) => test(Number(code)))
    .reduce((sum, [, n]) => sum + n, 0)
  const status2xx = count((code) => code >= 200 && code < 300)
  const status304 = statuses['304'] || 0
  const status503 = statuses['503'] || 0
  const cpuMillis = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore
  return {
    target,
    round,
    durationSeconds: result.duration,
    responses,
    requestsPerSecond: responses / result.duration,
    latencyP50: result.latency.p50,
    latencyP975: result.latency.p97_5,
    latencyP99: result.latency.p99,
    latencyMax: result.latency.max,
    bytesPerSecond: result.throughput.average,
    status2xx,
    status304,
    status503,
    statusOther: responses - status2xx - status304 - status503,
    errors: result.errors,
    timeouts: result.timeouts,
    peakRssBytes,
    cpuMillis,
    cpuMicrosPerRequest: cpuMillis === null || responses === 0 ? null : cpuMillis * 1000 / responses,
    perSecond
  }
}

// The ETag the server sends now, for the conditional target's If-None-Match.
function currentEtag (url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => {
      res.resume()
      if (res.statusCode === 200 && res.headers.etag) resolve(res.headers.etag)
      else reject(new Error(`${url} answered ${res.statusCode} without an ETag`))
    }).on('error', reject)
  })
}

function describeMachine () {
  const cpus = os.cpus()
  return {
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0] ? cpus[0].model : 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30)
  }
}

module.exports = { runComparison, describeMachine }
