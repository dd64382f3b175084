'use strict'

// The metric catalogue, in the order a run stores its figures: each one's names, unit, printing and
// which way is better (null: a status count is good or bad by the target). `gated` marks what the
// CPU gates read, `watched` what a run warns on when its rounds disagree; `per` divides for printing.

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

function metric (key) {
  const row = BY_KEY.get(key)
  if (!row) throw new Error(`no metric "${key}" in bench/protocol/metrics.js`)
  return row
}

const GATED = METRICS.find((row) => row.gated)

const WATCHED = METRICS.filter((row) => row.watched)

module.exports = { METRICS, metric, GATED, WATCHED }
