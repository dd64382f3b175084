'use strict'

// The benchmark's arithmetic: medians, paired ratios, goals, baselines.

const t = require('tap')
const { median, pairedRatio, evaluateRatios, compareWithBaseline, summarizeTargets, checkRequirements } = require('../bench/stats')

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

t.test('compareWithBaseline: fails a ratio that moved the wrong way by more than the tolerance', async (t) => {
  const ratios = [
    { name: 'up', value: 7.6, better: 'higher' },
    { name: 'down', value: 7.4, better: 'higher' },
    { name: 'cost', value: 1.3, better: 'lower' },
    { name: 'new', value: 1, better: 'higher' }
  ]
  const baseline = [{ name: 'up', value: 10 }, { name: 'down', value: 10 }, { name: 'cost', value: 1 }]
  const compared = compareWithBaseline(ratios, baseline, 0.25)
  t.same(compared.map((c) => [c.name, c.holds]), [['up', true], ['down', false], ['cost', false]],
    '-24 % holds, -26 % fails, a cost up 30 % fails, a ratio the baseline lacks is skipped')
  t.equal(Math.round(compared[1].change * 100), -26)
})

t.test('summarizeTargets: medians over rounds, in the order given', async (t) => {
  const runs = [
    run('a', 1, { rps: 10, perSecond: [1] }), run('a', 2, { rps: 30, perSecond: [2] }), run('a', 3, { rps: 20, perSecond: [3] }),
    run('b', 1, { rps: 5, perSecond: [] })
  ]
  t.same(summarizeTargets(runs, ['b', 'a', 'c']), [
    { target: 'b', rounds: 1, rps: 5 },
    { target: 'a', rounds: 3, rps: 20 }
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
