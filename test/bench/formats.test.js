'use strict'

// The CI formats (bench/print/ci-formats.js): Bencher Metric Format and
// github-action-benchmark's customSmallerIsBetter, from a result's figures.

const t = require('tap')
const { toBencherMetricFormat, toGithubBenchmark } = require('../../bench/print/ci-formats')

const result = {
  summaries: [{ target: 'fixed' }],
  runs: [
    { target: 'fixed', round: 1, requestsPerSecond: 40000, cpuMicrosPerRequest: 21, latencyP99: 8 },
    { target: 'fixed', round: 2, requestsPerSecond: 44000, cpuMicrosPerRequest: 20, latencyP99: 6 },
    { target: 'fixed', round: 3, requestsPerSecond: 42000, cpuMicrosPerRequest: 22, latencyP99: 7 }
  ],
  ratios: [
    { name: 'cpu fixed/node-http', metric: 'cpuMicrosPerRequest', value: 1.25, pairs: [1.2, 1.25, 1.3] },
    { name: 'fixed/node-http', metric: 'requestsPerSecond', value: 0.9, pairs: [0.9, 0.88, 0.95] }
  ]
}

t.test('Bencher Metric Format: benchmark -> measure -> value with bounds', async (t) => {
  t.same(toBencherMetricFormat(result), {
    fixed: {
      'requests-per-second': { value: 42000, lower_value: 40000, upper_value: 44000 },
      'cpu-microseconds-per-request': { value: 21, lower_value: 20, upper_value: 22 },
      'latency-p99-milliseconds': { value: 7, lower_value: 6, upper_value: 8 }
    },
    'cpu fixed/node-http': { ratio: { value: 1.25, lower_value: 1.2, upper_value: 1.3 } },
    'fixed/node-http': { ratio: { value: 0.9, lower_value: 0.88, upper_value: 0.95 } }
  })
})

t.test('github-action-benchmark: smaller-is-better figures only, with a range', async (t) => {
  t.same(toGithubBenchmark(result), [
    { name: 'fixed - CPU per request', unit: 'µs/req', value: 21, range: '± 1.00', extra: '3 rounds' },
    { name: 'fixed - p99 latency', unit: 'ms', value: 7, range: '± 1.00', extra: '3 rounds' },
    { name: 'cpu fixed/node-http', unit: 'ratio', value: 1.25, range: '± 0.0500', extra: "median of 3 rounds' pairs" }
  ], 'throughput, where bigger is better, is left out')
})
