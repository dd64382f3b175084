'use strict'

// One target under autocannon load, as every command that measures loads
// it: how it is started (a CPU tax, a file for its stdout), the headers its
// load sends, the load itself (for a time, a count of requests, or until
// stopped), and the figures of a measured window.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const autocannon = require('autocannon')
const { uninstrumented } = require('./uninstrumented')
const { METRICS } = require('../protocol/metrics')

const CPU_TAX = path.join(__dirname, 'cpu-tax.js')

// startTarget's options for a target's `env`, with `taxMicros` of busy CPU
// added to each of its requests (cpu-tax.js, preloaded) when > 0, and no
// test harness's coverage (uninstrumented.js): what the CPU meter reads.
function taxedStart (env = {}, taxMicros = 0) {
  return taxMicros > 0
    ? { nodeArgs: ['-r', CPU_TAX], env: uninstrumented({ ...env, CPU_TAX_MICROS: String(taxMicros) }) }
    : { env: uninstrumented(env) }
}

// startTarget's `stdout` for a target whose stdout is a file of `kind`: a
// file of the temporary folder named after `label`, for removeStdoutFile
// to remove after; null for a target whose stdout is a pipe.
function stdoutFile (kind, label) {
  return kind ? { kind, file: path.join(os.tmpdir(), `seed-${label}-${process.pid}.log`) } : null
}

function removeStdoutFile (stdout) {
  if (stdout) fs.rmSync(stdout.file, { force: true })
}

// The headers a target's load sends: its own, and for a conditional target
// If-None-Match with the ETag the server sends now.
async function requestHeaders (server, { conditional, headers = {} }) {
  return { ...headers, ...(conditional ? { 'if-none-match': await currentEtag(server.url, headers) } : {}) }
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

// One autocannon run, for a `duration` in seconds or an `amount` of
// requests; resolves to its result and the responses in each whole second.
function load (url, headers, connections, { duration, amount }) {
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
  })
}

// An autocannon run that goes on until stopped, counting the responses,
// their statuses and latencies while `recording` is set: for a window its
// caller times, not autocannon.
function startLoad (url, headers, connections) {
  let instance
  const done = new Promise((resolve, reject) => {
    instance = autocannon({ url, headers, connections, duration: 3600 }, (err, result) => err ? reject(err) : resolve(result))
  })
  const recorder = { recording: false, responses: 0, statuses: {}, latencies: [] }
  instance.on('response', (client, statusCode, resBytes, responseTime) => {
    if (!recorder.recording) return
    recorder.responses++
    recorder.statuses[statusCode] = (recorder.statuses[statusCode] || 0) + 1
    recorder.latencies.push(responseTime)
  })
  recorder.stop = () => {
    instance.stop()
    return done
  }
  return recorder
}

/**
 * The figures of a load that autocannon measured itself (`load`), with
 * the server's usage read `before` and `after` it: one per row of the
 * metric catalogue (bench/protocol/metrics.js), in its order, and `proc`.
 */
function runFigures (result, before, after) {
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats || {}).map(([code, { count }]) => [code, Number(count)]))
  return figuresOf({
    durationSeconds: result.duration,
    responses: Object.values(statuses).reduce((sum, count) => sum + count, 0),
    statuses,
    latencies: { latencyP50: result.latency.p50, latencyP975: result.latency.p97_5, latencyP99: result.latency.p99, latencyMax: result.latency.max },
    bytesPerSecond: result.throughput.average,
    errors: result.errors,
    timeouts: result.timeouts
  }, before, after)
}

/**
 * The figures of a window of `seconds` that `recorder` (startLoad) counted,
 * with autocannon's `result` for its errors and timeouts and the server's
 * usage read at the window's start and end: the same keys as runFigures's.
 * Its percentiles are the recorded latencies' own (autocannon's histogram
 * covers its whole run, warm-up too); its bytes per second is null: the
 * recorder does not count bytes, and nothing that reads a window prints it.
 */
function windowFigures ({ responses, statuses, latencies }, result, before, after, seconds) {
  latencies.sort((a, b) => a - b)
  const percentile = (share) => latencies.length === 0 ? null : latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))]
  return figuresOf({
    durationSeconds: seconds,
    responses,
    statuses,
    latencies: { latencyP50: percentile(0.5), latencyP975: percentile(0.975), latencyP99: percentile(0.99), latencyMax: percentile(1) },
    bytesPerSecond: null,
    errors: result.errors,
    timeouts: result.timeouts
  }, before, after)
}

// A load's figures in the catalogue's order, then the /proc cross-check.
// Every row must have a value here (null where there is none): a row
// added to the catalogue without one fails the first run, not a printer.
function figuresOf ({ durationSeconds, responses, statuses, latencies, bytesPerSecond, errors, timeouts }, before, after) {
  const { status2xx, status304, status503 } = countStatuses(statuses)
  const values = {
    durationSeconds,
    responses,
    requestsPerSecond: responses / durationSeconds,
    ...latencies,
    bytesPerSecond,
    status2xx,
    status304,
    status503,
    statusOther: responses - status2xx - status304 - status503,
    errors,
    timeouts,
    ...serverCost(before, after, responses)
  }
  const figures = {}
  for (const { key } of METRICS) {
    if (!(key in values)) throw new Error(`bench/measure/load.js has no value for the metric "${key}"`)
    figures[key] = values[key]
  }
  // The same two figures from /proc, where there is one: a cross-check of
  // the probe's (test/serial/bench/bench.test.js compares them).
  figures.proc = after.proc && before.proc ? { cpuMillis: after.proc.cpuMillis - before.proc.cpuMillis, peakRssBytes: after.proc.peakRssBytes } : null
  return figures
}

// Responses by status class, from { code: count }.
function countStatuses (statuses) {
  const count = (test) => Object.entries(statuses).filter(([code]) => test(Number(code))).reduce((sum, [, n]) => sum + n, 0)
  return {
    status2xx: count((code) => code >= 200 && code < 300),
    status304: count((code) => code === 304),
    status503: count((code) => code === 503)
  }
}

// What the responses cost the server, from its usage before and after
// them: the peak RSS, the CPU time, and the CPU time per response. Null
// where the CPU time could not be read (a process tree without /proc).
function serverCost (before, after, responses) {
  const cpuMillis = after.cpuMillis === null || before.cpuMillis === null ? null : after.cpuMillis - before.cpuMillis
  return {
    peakRssBytes: after.peakRssBytes,
    cpuMillis,
    cpuMicrosPerRequest: responses === 0 || cpuMillis === null ? null : cpuMillis * 1000 / responses
  }
}

module.exports = { taxedStart, stdoutFile, removeStdoutFile, requestHeaders, load, startLoad, runFigures, windowFigures }
