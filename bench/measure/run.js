'use strict'

// The measuring half of the benchmark: run every target, round by round,
// under the same autocannon load, and return every figure. Rendering lives
// in report.js, the command in index.js.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const autocannon = require('autocannon')
const { startTarget } = require('../../tooling/target-process')
const { describeHead } = require('../compare/base-tree')

const CPU_TAX = path.join(__dirname, 'cpu-tax.js')

/**
 * Run the comparison `protocol` describes: { targets, connections, warmup,
 * duration, warmupRequests, requests, rounds }, with `targets` the
 * definitions by name (goals.js's TARGETS and the user's own). Rounds
 * alternate the targets' order (forwards, then backwards) so that
 * neighbours in time are compared. `cpuTax` ({ target: micros }) adds that
 * much busy CPU time to each request of a target, through bench/cpu-tax.js
 * preloaded into it: a regression made to order, for calibrating the gate.
 * `onRun(run)` is called after each target's run; `progress` decides
 * whether autocannon draws its progress bar; `machine` is the machine as
 * described before the run (its load average is the start's). Resolves to { protocol,
 * targets, cpuTax, machine, versions, commit, started, finished, runs }.
 */
async function runComparison (protocol, { targets, cpuTax = {}, onRun = () => {}, progress = false, machine = describeMachine() }) {
  const started = new Date().toISOString()
  const runs = []
  for (let round = 1; round <= protocol.rounds; round++) {
    const order = round % 2 === 1 ? protocol.targets : [...protocol.targets].reverse()
    for (const target of order) {
      const run = await runTarget(target, targets[target], round, protocol, { progress, taxMicros: cpuTax[target] })
      runs.push(run)
      onRun(run)
    }
  }
  return { protocol, targets, cpuTax, machine, versions: describeVersions(), commit: currentCommit(), started, finished: new Date().toISOString(), runs }
}

async function runTarget (target, { entry, conditional, env, leaking, headers: targetHeaders = {}, stdout, processTree }, round, protocol, { progress, taxMicros }) {
  // A target whose stdout is a file writes into this one, removed after.
  const stdoutFile = stdout ? { kind: stdout, file: path.join(os.tmpdir(), `seed-bench-${target}-${process.pid}.log`) } : null
  const server = await startTarget(entry, { ...taxedStart(env, taxMicros), stdout: stdoutFile, processTree })
  try {
    const headers = await requestHeaders(server, { conditional, headers: targetHeaders })
    // A leaking target gets a count of requests, the others seconds.
    const warmup = leaking ? { amount: protocol.warmupRequests } : { duration: protocol.warmup }
    const measured = leaking ? { amount: protocol.requests } : { duration: protocol.duration }
    const warmedUp = warmup.amount > 0 || warmup.duration > 0
      ? await load(server.url, headers, protocol.connections, warmup)
      : { perSecond: [] }
    const before = await server.usage()
    const { result, perSecond } = await load(server.url, headers, protocol.connections, measured,
      progress && `${target} (round ${round}/${protocol.rounds})`)
    const after = await server.usage()
    return summarizeRun(target, round, result, { warmup: warmedUp.perSecond, measured: perSecond }, before, after)
  } finally {
    await server.stop()
    if (stdoutFile) fs.rmSync(stdoutFile.file, { force: true })
  }
}

// startTarget's options for a target's `env`, with `taxMicros` of busy CPU
// added to each of its requests (bench/cpu-tax.js, preloaded) when > 0.
function taxedStart (env = {}, taxMicros = 0) {
  return taxMicros > 0 ? { nodeArgs: ['-r', CPU_TAX], env: { ...env, CPU_TAX_MICROS: String(taxMicros) } } : { env }
}

// The headers a target's load sends: its own, and for a conditional target
// If-None-Match with the ETag the server sends now.
async function requestHeaders (server, { conditional, headers = {} }) {
  return { ...headers, ...(conditional ? { 'if-none-match': await currentEtag(server.url, headers) } : {}) }
}

// One autocannon run, for a `duration` in seconds or an `amount` of
// requests; resolves to its result and the responses in each whole second.
function load (url, headers, connections, { duration, amount }, progressLabel) {
  return new Promise((resolve, reject) => {
    const perSecond = []
    const instance = autocannon({ url, headers, connections, ...(amount ? { amount } : { duration }) }, (err, result) => {
      if (err) return reject(err)
      // autocannon ticks once a second, plus once more when it stops: that
      // last one covers part of a second only.
      if (perSecond.length > Math.max(1, Math.floor(result.duration))) perSecond.pop()
      resolve({ result, perSecond })
    })
    instance.on('tick', ({ counter }) => perSecond.push(counter))
    if (progressLabel) {
      autocannon.track(instance, {
        renderProgressBar: true,
        renderResultsTable: false,
        progressBarString: `  ${progressLabel} [:bar] :percent`
      })
    }
  })
}

function summarizeRun (target, round, result, { warmup, measured }, before, after) {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats || {})
    .map(([code, { count }]) => [code, Number(count)]))
  const responses = Object.values(statuses).reduce((sum, count) => sum + count, 0)
  const count = (test) => Object.entries(statuses).filter(([code]) => test(Number(code)))
    .reduce((sum, [, n]) => sum + n, 0)
  const status2xx = count((code) => code >= 200 && code < 300)
  const status304 = statuses['304'] || 0
  const status503 = statuses['503'] || 0
  // Null where the CPU time could not be read (a process tree without /proc).
  const cpuMillis = after.cpuMillis === null || before.cpuMillis === null ? null : after.cpuMillis - before.cpuMillis
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
    peakRssBytes: after.peakRssBytes,
    cpuMillis,
    cpuMicrosPerRequest: responses === 0 || cpuMillis === null ? null : cpuMillis * 1000 / responses,
    // The same two figures from /proc, where there is one: a cross-check of
    // the probe's (test/bench.test.js compares them).
    proc: after.proc && before.proc ? { cpuMillis: after.proc.cpuMillis - before.proc.cpuMillis, peakRssBytes: after.proc.peakRssBytes } : null,
    warmupPerSecond: warmup,
    perSecond: measured
  }
}

// The ETag the server sends now, for the conditional target's If-None-Match.
function currentEtag (url, headers) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers }, (res) => {
      res.resume()
      if (res.statusCode === 200 && res.headers.etag) resolve(res.headers.etag)
      else reject(new Error(`${url} answered ${res.statusCode} without an ETag`))
    }).on('error', reject)
  })
}

/**
 * The machine as the run found it: CPU model and cores, the cores this
 * process may use (`usableCores`: the CPU affinity `taskset` sets; the
 * servers it starts and autocannon, which runs in this process, share
 * them), memory, the 1-minute load average at the start (null where the OS
 * has none), Node and the platform.
 */
function describeMachine () {
  const cpus = os.cpus()
  return {
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0] ? cpus[0].model : 'unknown',
    cores: cpus.length,
    usableCores: os.availableParallelism(),
    loadAverage: process.platform === 'win32' ? null : os.loadavg()[0],
    memoryGiB: Math.round(os.totalmem() / 2 ** 30)
  }
}

/**
 * The share of the machine's CPU time (all cores) that was not idle over
 * `ms` before the run, while this process waits on a timer: what else is
 * running now. The load average alone misses a load that started a few
 * seconds ago (a 1-minute average: 0.17 with cpu-hog started a second
 * before). Null where the OS reports no CPU times.
 */
async function sampleCpuBusy (ms = 500) {
  const total = () => os.cpus().reduce((sum, { times }) => {
    sum.all += times.user + times.nice + times.sys + times.idle + times.irq
    sum.idle += times.idle
    return sum
  }, { all: 0, idle: 0 })
  const before = total()
  await new Promise((resolve) => setTimeout(resolve, ms))
  const after = total()
  const all = after.all - before.all
  return all > 0 ? 1 - (after.idle - before.idle) / all : null
}

// The versions of what the figures depend on, besides Node (in the machine).
function describeVersions () {
  const versionOf = (name) => {
    try {
      return require(`${name}/package.json`).version
    } catch {
      return null
    }
  }
  return Object.fromEntries(['restify', 'fast-json-stringify', 'autocannon', 'fastify']
    .map((name) => [name, versionOf(name)]).filter(([, version]) => version !== null))
}

// The commit the run measured, with "+changes" when the tree differs from
// it; null outside a git checkout.
function currentCommit () {
  try {
    const { commit, dirty } = describeHead()
    return dirty ? `${commit}+changes` : commit
  } catch {
    return null
  }
}

module.exports = { runComparison, describeMachine, sampleCpuBusy, describeVersions, taxedStart, requestHeaders, load, summarizeRun }
