'use strict'

// One target under autocannon load, as every command that measures loads it: its start (a CPU tax, a file for its stdout),
// the headers its load sends, the load (for a time, a count of requests, or until stopped), and a measured window's figures.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const autocannon = require('autocannon')
const { uninstrumented } = require('./uninstrumented')
const { METRICS } = require('../protocol/metrics')

const CPU_TAX = path.join(__dirname, 'cpu-tax.js')

// startTarget's options for `env`, with `taxMicros` of busy CPU per request (cpu-tax.js) and no harness's coverage (uninstrumented.js).
function taxedStart (env = {}, taxMicros = 0) {
  return taxMicros > 0
    ? { nodeArgs: ['-r', CPU_TAX], env: uninstrumented({ ...env, CPU_TAX_MICROS: String(taxMicros) }) }
    : { env: uninstrumented(env) }
}

// startTarget's `stdout` for a target whose stdout is a file of `kind`, which removeStdoutFile removes after; null for a pipe.
function stdoutFile (kind, label) {
  return kind ? { kind, file: path.join(os.tmpdir(), `seed-${label}-${process.pid}.log`) } : null
}

function removeStdoutFile (stdout) {
  if (stdout) fs.rmSync(stdout.file, { force: true })
}

async function requestHeaders (server, { conditional, headers = {} }) {
  return { ...headers, ...(conditional ? { 'if-none-match': await currentEtag(server.url, headers) } : {}) }
}

function currentEtag (url, headers) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers }, (res) => {
      res.resume()
      if (res.statusCode === 200 && res.headers.etag) resolve(res.headers.etag)
      else reject(new Error(`${url} answered ${res.statusCode} without an ETag`))
    }).on('error', reject)
  })
}

// One autocannon run, for a `duration` in seconds or an `amount` of requests; resolves to its result and the responses per whole second.
function load (url, headers, connections, { duration, amount }) {
  return new Promise((resolve, reject) => {
    const perSecond = []
    const instance = autocannon({ url, headers, connections, ...(amount ? { amount } : { duration }) }, (err, result) => {
      if (err) return reject(err)
      // autocannon ticks once a second, and once more when it stops: that last tick covers part of a second only.
      if (perSecond.length > Math.max(1, Math.floor(result.duration))) perSecond.pop()
      resolve({ result, perSecond })
    })
    instance.on('tick', ({ counter }) => perSecond.push(counter))
  })
}

// An autocannon run that goes on until stopped, recording responses while `recording` is set: for a window its caller times.
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

// A load's figures, as autocannon measured them, with the server's usage `before` and `after`: one per row of bench/protocol/metrics.js.
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

// The same figures for a window of `seconds` that `recorder` (startLoad) counted. Its percentiles are the recorded latencies' own
// (autocannon's histogram covers its warm-up too); bytes per second is null: the recorder does not count bytes.
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

// Every catalogue row must have a value here (null where there is none): a row added without one fails the first run, not a printer.
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
  // The same two figures from /proc, where there is one: a cross-check of the probe's (test/serial/bench/bench.test.js).
  figures.proc = after.proc && before.proc ? { cpuMillis: after.proc.cpuMillis - before.proc.cpuMillis, peakRssBytes: after.proc.peakRssBytes } : null
  return figures
}

function countStatuses (statuses) {
  const count = (test) => Object.entries(statuses).filter(([code]) => test(Number(code))).reduce((sum, [, n]) => sum + n, 0)
  return {
    status2xx: count((code) => code >= 200 && code < 300),
    status304: count((code) => code === 304),
    status503: count((code) => code === 503)
  }
}

// What the responses cost the server; CPU time is null where it could not be read (a process tree without /proc).
function serverCost (before, after, responses) {
  const cpuMillis = after.cpuMillis === null || before.cpuMillis === null ? null : after.cpuMillis - before.cpuMillis
  return {
    peakRssBytes: after.peakRssBytes,
    cpuMillis,
    cpuMicrosPerRequest: responses === 0 || cpuMillis === null ? null : cpuMillis * 1000 / responses
  }
}

module.exports = { taxedStart, stdoutFile, removeStdoutFile, requestHeaders, load, startLoad, runFigures, windowFigures }
