'use strict'

// The benchmark's arithmetic: medians, paired ratios, goals, baselines.

const t = require('tap')
const { median, pairedRatio, evaluateRatios, compareWithBaseline, permutationPValue, spread, summarizeTargets } = require('../../bench/judge/stats')
const { checkRequirements } = require('../../bench/judge/requirements')

const run = (target, round, fields) => ({ target, round, ...fields })

t.test('median', async (t) => {
  t.equal(median([3, 1, 2]), 2, 'odd count: the middle value')
  t.equal(median([4, 1, 3, 2]), 2.5, 'even count: the mean of the middle two')
  t.equal(median([5, null, NaN, 1, 3]), 3, 'non-numbers are ignored')
  t.equal(median([]), null, 'none: null')
})

t.test('pairedRatio: the median of the ratios within each round', async (t) => {
  const runs = [
    run('a', 1, { rps: 100 }), run('b', 1, { rps: 50 }),
    run('a', 2, { rps: 300 }), run('b', 2, { rps: 100 }),
    run('a', 3, { rps: 90 }), run('b', 3, { rps: 90 })
  ]
  const { value, pairs } = pairedRatio(runs, { of: 'a', over: 'b', metric: 'rps' })
  t.same(pairs, [2, 3, 1])
  t.equal(value, 2, 'median of 2, 3, 1; not the ratio of medians (100/90)')
})

t.test('pairedRatio: a round without its partner or with a zero is skipped', async (t) => {
  const runs = [run('a', 1, { rps: 10 }), run('b', 2, { rps: 5 }), run('a', 3, { rps: 10 }), run('b', 3, { rps: 0 })]
  t.same(pairedRatio(runs, { of: 'a', over: 'b', metric: 'rps' }), { value: null, pairs: [] })
})

t.test('evaluateRatios: goals for higher and lower is better', async (t) => {
  const runs = [run('a', 1, { rps: 300, cpu: 12 }), run('b', 1, { rps: 100, cpu: 10 })]
  const definitions = [
    { name: 'a/b', of: 'a', over: 'b', metric: 'rps', better: 'higher' },
    { name: 'cpu a/b', of: 'a', over: 'b', metric: 'cpu', better: 'lower' },
    { name: 'a/c', of: 'a', over: 'c', metric: 'rps', better: 'higher' },
    { name: 'b/a', of: 'b', over: 'a', metric: 'rps', better: 'higher' }
  ]
  const ratios = evaluateRatios(runs, definitions, { 'a/b': 3, 'cpu a/b': 1.1 })
  t.same(ratios.map((r) => [r.name, r.value, r.goal, r.holds]), [
    ['a/b', 3, 3, true],
    ['cpu a/b', 1.2, 1.1, false],
    ['b/a', 1 / 3, null, null]
  ], 'a goal reached exactly holds; a cost over its goal does not; no goal, no verdict; a/c left out')
})

t.test('permutationPValue: the share of splits at least as extreme as the one observed', async (t) => {
  t.equal(permutationPValue([5, 6, 7], [1, 2, 3]), 1 / 20, 'complete separation: 1 of the C(6,3) = 20 splits')
  t.equal(permutationPValue([1, 2, 3], [5, 6, 7]), 1, 'the other way: every split is at least as extreme')
  t.equal(permutationPValue([3, 4], [1, 2, 5]), 4 / 10, 'sum 7 of the first group; 4 of 10 splits reach it (2+5, 3+4, 3+5, 4+5)')
  t.equal(permutationPValue([1, 1], [1, 1]), 1, 'ties count as extreme')
})

t.test('spread: the largest round over the smallest, minus one', async (t) => {
  t.equal(spread([100, 125, 110]), 0.25)
  t.equal(spread([5]), null, 'one round: no spread')
  t.equal(spread([null, 4, 2]), 1, 'missing figures are left out')
})

t.test('compareWithBaseline: CPU ratios against the baseline\'s rounds, by permutation test', async (t) => {
  const base = [1.20, 1.22, 1.19, 1.21, 1.23, 1.20]
  const overReference = { over: 'ref', metric: 'cpuMicrosPerRequest', better: 'lower' }
  const ratios = [
    { name: 'cpu worse', ...overReference, value: 1.33, pairs: base.map((v) => v * 1.1) },
    { name: 'cpu same', ...overReference, value: 1.21, pairs: [1.21, 1.19, 1.22, 1.20, 1.23, 1.20] },
    { name: 'cpu better', ...overReference, value: 1.0, pairs: base.map((v) => v * 0.8) },
    { name: 'throughput', over: 'ref', metric: 'requestsPerSecond', better: 'higher', value: 0.5, pairs: [0.5, 0.5] },
    { name: 'cpu over another target', ...overReference, over: 'other', value: 1.33, pairs: base.map((v) => v * 1.1) },
    { name: 'cpu new', ...overReference, value: 1, pairs: [1, 1] }
  ]
  const baseline = ['cpu worse', 'cpu same', 'cpu better', 'throughput', 'cpu over another target'].map((name) => ({ name, pairs: base }))
  const compared = compareWithBaseline(ratios, baseline, { alpha: 0.03, reference: 'ref' })
  t.same(compared.map((c) => [c.name, c.holds]), [['cpu worse', false], ['cpu same', true], ['cpu better', true]],
    '10 % worse in every round fails; the same or better holds; throughput, CPU ratios over another target than the reference, and ratios the baseline lacks are not gated')
  t.equal(compared[0].pValue, 1 / 924, 'complete separation of 6 rounds from 6')
  t.equal(compared[0].rounds, 6)
  t.equal(Math.round(compared[0].change * 1000), 104, '1.33 against the median of the baseline\'s rounds, 1.205')
})

t.test('compareWithBaseline: too few rounds to ever reach alpha is said, not passed', async (t) => {
  const ratios = [{ name: 'cpu x', over: 'ref', metric: 'cpuMicrosPerRequest', better: 'lower', value: 2, pairs: [2, 2] }]
  const [compared] = compareWithBaseline(ratios, [{ name: 'cpu x', pairs: [1, 1, 1] }], { alpha: 0.01, reference: 'ref' })
  t.equal(compared.holds, null)
  t.match(compared.note, /2 rounds against 3: too few for a p-value under 0\.010/)
})

t.test('summarizeTargets: medians over rounds, in the order given', async (t) => {
  const runs = [
    run('a', 1, { rps: 10, perSecond: [1] }), run('a', 2, { rps: 30, perSecond: [2] }), run('a', 3, { rps: 20, perSecond: [3] }),
    run('b', 1, { rps: 5, perSecond: [] })
  ]
  t.same(summarizeTargets(runs, ['b', 'a', 'c']), [
    { target: 'b', rounds: 1, rps: 5, spread: { requestsPerSecond: null, cpuMicrosPerRequest: null } },
    { target: 'a', rounds: 3, rps: 20, spread: { requestsPerSecond: null, cpuMicrosPerRequest: null } }
  ])
})

t.test('checkRequirements: errors, timeouts and 304-only targets', async (t) => {
  const runs = [
    run('fast', 1, { errors: 0, timeouts: 2, responses: 10, status304: 0 }),
    run('fixed', 1, { errors: 3, timeouts: 0, responses: 10, status304: 0 }),
    run('fixed-304', 1, { errors: 0, timeouts: 0, responses: 10, status304: 9 }),
    run('slow', 1, { errors: 50, timeouts: 50, responses: 10, status304: 0 }),
    run('slow-protected', 1, { errors: 0, timeouts: 0, responses: 10, status304: 0, status503: 0 })
  ]
  const failures = checkRequirements(runs,
    { errorFree: ['fast', 'fixed'], timeoutFree: ['fast'], shedding: ['slow-protected'] }, ['fixed-304'])
  t.same(failures, [
    'fast (round 1): 2 timeouts, expected none',
    'fixed (round 1): 3 errors, expected none',
    'fixed-304 (round 1): 1 of 10 responses were not 304',
    'slow-protected (round 1): no 503, expected load to be shed'
  ])
  const none = checkRequirements([run('fixed-304', 1, { errors: 0, timeouts: 0, responses: 0, status304: 0 })], { errorFree: [], timeoutFree: [] }, ['fixed-304'])
  t.equal(none.length, 1, 'a conditional target that answered nothing fails too')
})
