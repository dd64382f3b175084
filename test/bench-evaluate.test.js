'use strict'

// What a run means, from its figures alone: goals, checks, baseline, and the
// sentences a failed run prints (bench/evaluate.js).

const t = require('tap')
const { evaluateRun } = require('../bench/evaluate')

// One round of the ci mode's targets with the figures given per target.
function ciRound (round, rps, extra = {}) {
  return ['slow', 'fast', 'fixed', 'fixed-304'].map((target) => ({
    target,
    round,
    requestsPerSecond: rps[target],
    responses: rps[target] * 4,
    status304: target === 'fixed-304' ? rps[target] * 4 : 0,
    errors: 0,
    timeouts: 0,
    status503: 0,
    ...extra[target]
  }))
}

const protocol = { targets: ['slow', 'fast', 'fixed', 'fixed-304'] }
const healthy = { slow: 100, fast: 10000, fixed: 30000, 'fixed-304': 40000 }

t.test('every goal and check held: no failure', async (t) => {
  const runs = [...ciRound(1, healthy), ...ciRound(2, healthy)]
  const result = evaluateRun({ protocol, runs }, { mode: 'ci', tolerance: 0.25 })
  t.same(result.failures, [])
  t.same(result.unenforced, [])
  t.equal(result.enforced, true)
  t.same(result.ratios.find((r) => r.name === 'fast/slow'), {
    name: 'fast/slow', metric: 'requestsPerSecond', better: 'higher', value: 100, pairs: [100, 100], goal: 50, holds: true
  })
  t.same(result.summaries.map((s) => s.target), protocol.targets)
})

t.test('a missed goal and a failed check fail an enforced mode, each in a sentence', async (t) => {
  const slowFast = { ...healthy, fast: 1000 } // fast/slow 10, goal 50
  const runs = [...ciRound(1, slowFast, { fixed: { errors: 3 } }), ...ciRound(2, slowFast)]
  const { failures } = evaluateRun({ protocol, runs }, { mode: 'ci', tolerance: 0.25 })
  t.same(failures, ['fast/slow is 10.00, goal >= 50', 'fixed (round 1): 3 errors, expected none'])
})

t.test('the start mode reports the same misses without failing', async (t) => {
  const startProtocol = { targets: ['slow', 'fast'] }
  const runs = [
    { target: 'slow', round: 1, requestsPerSecond: 100, responses: 500, errors: 0, timeouts: 0 },
    { target: 'fast', round: 1, requestsPerSecond: 1000, responses: 5000, errors: 0, timeouts: 0 }
  ]
  const result = evaluateRun({ protocol: startProtocol, runs }, { mode: 'start', tolerance: 0.25 })
  t.same(result.failures, [])
  t.same(result.unenforced, ['fast/slow is 10.00, goal >= 200'])
  t.equal(result.enforced, false)
})

t.test('a ratio that fell beyond the tolerance from the baseline fails the run', async (t) => {
  const runs = [...ciRound(1, healthy), ...ciRound(2, healthy)] // fixed/fast 3, fast/slow 100
  const baseline = { ratios: [{ name: 'fixed/fast', value: 4.2 }, { name: 'fast/slow', value: 110 }] }
  const result = evaluateRun({ protocol, runs }, { mode: 'ci', baseline, tolerance: 0.25 })
  t.same(result.failures, ["fixed/fast moved -28.6 % from the baseline's 4.20 (tolerance 25 %)"],
    'fast/slow, 9 % down, is within the tolerance')
  t.same(result.baseline.map((b) => [b.name, b.holds]), [['fast/slow', true], ['fixed/fast', false]])
})
