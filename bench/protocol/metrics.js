'use strict'

// The metric catalogue: every figure a run measures of a target, one row
// each, and the one place that says what it is called, its unit, which
// way is better, whether a gate reads it and how the printers write it.
// The rows are in the order a run stores its figures (bench/measure/load.js
// builds both of its figure sets from them, so a --json result's keys keep
// this order). Which rows a printer shows, and in what order, is the
// printer's own choice (a list of keys); what each row means is here.
//
// Fields: `key` (the figure's name in a run), `label` (a table's column),
// `name` (in a sentence, and in github-action-benchmark's entries), `unit`
// (of the value as stored), `better` ('higher', 'lower', or null where
// neither is: a status count is good or bad by the target), `gated` (the
// figure the CPU gates read: bench:compare's verdict, and the ratios
// against the reference a --baseline compares), `watched` (a run warns when
// its rounds disagree on it: judge/stats.js's spread, judge/evaluate.js's
// warning), `format` ('integer' or 'decimal': print/numbers.js) and `per`
// (the printed value is the stored one divided by it: bytes as MB).

const METRICS = [
  { key: 'durationSeconds', label: 'seconds', name: 'measured seconds', unit: 's', better: null, format: 'decimal' },
  { key: 'responses', label: 'responses', name: 'responses', unit: 'responses', better: null, format: 'integer' },
  { key: 'requestsPerSecond', label: 'req/s', name: 'requests per second', unit: 'req/s', better: 'higher', watched: true, format: 'integer' },
  { key: 'latencyP50', label: 'p50 ms', name: 'p50 latency', unit: 'ms', better: 'lower', format: 'decimal' },
  { key: 'latencyP975', label: 'p97.5 ms', name: 'p97.5 latency', unit: 'ms', better: 'lower', format: 'decimal' },
  { key: 'latencyP99', label: 'p99 ms', name: 'p99 latency', unit: 'ms', better: 'lower', format: 'decimal' },
  { key: 'latencyMax', label: 'max ms', name: 'largest latency', unit: 'ms', better: 'lower', format: 'decimal' },
  { key: 'bytesPerSecond', label: 'MB/s', name: 'bytes per second', unit: 'B/s', better: 'higher', format: 'decimal', per: 1e6 },
  { key: 'status2xx', label: '2xx', name: '2xx responses', unit: 'responses', better: null, format: 'integer' },
  { key: 'status304', label: '304', name: '304 responses', unit: 'responses', better: null, format: 'integer' },
  { key: 'status503', label: '503', name: '503 responses', unit: 'responses', better: null, format: 'integer' },
  { key: 'statusOther', label: 'other', name: 'responses of any other status', unit: 'responses', better: null, format: 'integer' },
  { key: 'errors', label: 'errors', name: 'errors', unit: 'errors', better: 'lower', format: 'integer' },
  { key: 'timeouts', label: 'timeouts', name: 'timeouts', unit: 'timeouts', better: 'lower', format: 'integer' },
  { key: 'peakRssBytes', label: 'peak RSS MB', name: 'peak RSS', unit: 'bytes', better: 'lower', format: 'decimal', per: 2 ** 20 },
  { key: 'cpuMillis', label: 'CPU ms', name: 'CPU time', unit: 'ms', better: 'lower', format: 'decimal' },
  { key: 'cpuMicrosPerRequest', label: 'CPU µs/req', name: 'CPU per request', unit: 'µs/req', better: 'lower', gated: true, watched: true, format: 'decimal' }
]

const BY_KEY = new Map(METRICS.map((row) => [row.key, row]))

/**
 * The row of `key`; throws for a key the catalogue does not have, so that
 * a printer's list of keys cannot name a figure no run has.
 */
function metric (key) {
  const row = BY_KEY.get(key)
  if (!row) throw new Error(`no metric "${key}" in bench/protocol/metrics.js`)
  return row
}

// The figure the CPU gates read (one row is marked `gated`).
const GATED = METRICS.find((row) => row.gated)

// The figures whose rounds a run watches for disagreement, in catalogue order.
const WATCHED = METRICS.filter((row) => row.watched)

module.exports = { METRICS, metric, GATED, WATCHED }
