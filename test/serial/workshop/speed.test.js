'use strict'

// verify's speed comparison (workshop/speed.js) and its verdict in words.
// The workshop's other commands: workshop-commands.test.js.

const t = require('tap')
const path = require('node:path')
const { verify } = require('../../../workshop/verify')
const { compareSpeed, judgeSpeed, speedComparisons, speedVerdict, SPEED_PROTOCOL } = require('../../../workshop/speed')
const { skipOffMainLine } = require('../../skips')
const { oneLineFixCopy, hashingCopy } = require('../../workshop/copies')

// verify's speed: eight rounds of three servers, each 1 + 1.5 s, and slow
// by counts, twice over: more than tap's 30 s a file.
t.setTimeout(4 * 60 * 1000)

// Made-up rounds as compareSpeed records them: `cpu` { target: [µs per
// request, a round each] } measured by time together, slow by counts once.
function madeUpRuns (cpu, { slow = 9000, leaking = false } = {}) {
  const runs = []
  for (const [target, rounds] of Object.entries(cpu)) {
    rounds.forEach((micros, i) => runs.push({ target, round: i + 1, by: 'time', cpuMicrosPerRequest: micros, requestsPerSecond: 1e6 / micros }))
  }
  runs.push({ target: 'slow', round: 1, by: 'count', cpuMicrosPerRequest: slow, requestsPerSecond: 100 })
  if (leaking) runs.push({ target: 'yours', round: 1, by: 'count', cpuMicrosPerRequest: leaking, requestsPerSecond: 100 })
  return runs
}

// A server's rounds: `level` µs per request times the machine's speed in
// each round, which moves every server of the round alike, times `own`,
// the processes' own spread (a few per cent).
const MACHINE = [1, 1.3, 0.8, 1.1, 1.4, 0.9, 1.2, 1]
const rounds = (level, own = [1, 1, 1, 1, 1, 1, 1, 1]) => MACHINE.map((speed, i) => level * speed * own[i])
const OWN = [1.02, 0.97, 1.04, 0.99, 1.01, 0.96, 1.03, 1]
const OTHER_OWN = [0.98, 1.03, 0.99, 1.02, 0.97, 1.04, 1, 1.01]

t.test('the verdict: against fixed/ first, a difference only where the rounds show it', async (t) => {
  const paired = (ratio, interval, { pWorse = 1, pBetter = 1 } = {}) => ({ ratio, interval, pWorse, pBetter, rounds: 8 })
  const apart = (ratio) => ({ ratio, interval: null, pWorse: null, pBetter: null, rounds: 0 })
  const slow = apart(0.01)
  t.equal(speedVerdict({ fixed: paired(1.04, [0.98, 1.1]), fast: paired(0.45, [0.4, 0.5], { pBetter: 0.004 }), slow }),
    "about as fast as fixed/: 1.04 times fixed/'s CPU per request (0.980 to 1.10)")
  t.equal(speedVerdict({ fixed: paired(1.37, [1.28, 1.45], { pWorse: 0.004 }), fast: paired(0.6, [0.55, 0.66], { pBetter: 0.004 }), slow }),
    "between fixed/ and fast/: costs 1.37 times fixed/'s CPU per request (1.28 to 1.45)", 'issue 47: a copy that still hashes')
  t.equal(speedVerdict({ fixed: paired(2.2, [2.1, 2.3], { pWorse: 0.004 }), fast: paired(0.95, [0.9, 1.02]), slow }),
    "about as fast as fast/: costs 2.20 times fixed/'s CPU per request (2.10 to 2.30)")
  t.equal(speedVerdict({ fixed: paired(0.75, [0.7, 0.8], { pBetter: 0.004 }), fast: paired(0.3, [0.28, 0.33], { pBetter: 0.004 }), slow }),
    'faster than fixed/: 25 % less CPU per request (20 to 30 %)')
  t.equal(speedVerdict({ fixed: paired(1.25, [0.9, 1.7], { pWorse: 0.15 }), fast: paired(0.55, [0.4, 0.8], { pBetter: 0.01 }), slow }),
    "not told apart from fixed/ in this run: 1.25 times fixed/'s CPU per request (0.900 to 1.70); run it again with less running beside it",
    'outside the band, but the rounds do not show it')
  t.equal(speedVerdict({ fixed: paired(0.89, [0.82, 1.13], { pBetter: 0.2 }), fast: paired(0.31, [0.28, 0.35], { pBetter: 0.004 }), slow }),
    "about as fast as fixed/: 0.890 times fixed/'s CPU per request (0.820 to 1.13)", 'under the band, not surely: no more than fixed/ (a plain copy on Node 24 beside cpu-hog)')
  t.equal(speedVerdict({ fixed: apart(400), fast: apart(100), slow: apart(0.9) }), "about as slow as slow/: 100 times fast/'s CPU per request",
    'a leaking copy, measured apart: by its ratios alone')
  t.equal(speedVerdict({ fixed: apart(20), fast: apart(5), slow: apart(0.04) }), 'slower than fast/: 5.00 times its CPU per request')
  t.equal(speedVerdict({ fixed: apart(0), fast: apart(0), slow }), 'not measured: a server answered nothing')
})

t.test('the rounds judged as pairs: the machine\'s ups and downs cancel, the code\'s cost does not', async (t) => {
  // The reported case: yours 1.37 times fixed/ in every round, the rounds
  // themselves 0.8 to 1.4 times apart (measured one after the other, such
  // a run's spread called the two alike).
  const hashing = judgeSpeed(madeUpRuns({ yours: rounds(1.37 * 60, OWN), fast: rounds(150, OTHER_OWN), fixed: rounds(60, OTHER_OWN) }))
  t.match(hashing.verdict, /^between fixed\/ and fast\/: costs 1\.3\d times fixed\/'s CPU per request \(1\.\d+ to 1\.\d+\)$/)
  t.ok(hashing.comparisons.fixed.interval[0] > 1.25, `the interval stays above 1.25: ${hashing.comparisons.fixed.interval}`)
  t.equal(hashing.comparisons.fixed.pWorse, 1 / 256, 'every round costlier: the smallest p-value of 8 rounds')

  const copyOfFixed = judgeSpeed(madeUpRuns({ yours: rounds(60, OWN), fast: rounds(150, OTHER_OWN), fixed: rounds(60, OTHER_OWN) }))
  t.match(copyOfFixed.verdict, /^about as fast as fixed\/: (0\.9\d+|1\.0\d) times fixed\/'s CPU per request/)

  // One round disturbed (yours alone slowed by half): one rank, not the run.
  const disturbed = rounds(60, OWN)
  disturbed[4] *= 1.5
  t.match(judgeSpeed(madeUpRuns({ yours: disturbed, fast: rounds(150, OTHER_OWN), fixed: rounds(60, OTHER_OWN) })).verdict, /^about as fast as fixed\//)

  const summaries = hashing.summaries.map(({ target, rounds }) => [target, rounds])
  t.same(summaries, [['yours', 8], ['slow', 1], ['fast', 8], ['fixed', 8]], 'the table: every server, its rounds')
})

t.test('a leaking copy, measured by counts beside slow: its ratios are the medians\'', async (t) => {
  const steady = (micros) => new Array(8).fill(micros)
  const comparisons = speedComparisons(madeUpRuns({ fast: steady(150), fixed: steady(60) }, { slow: 10000, leaking: 8000 }))
  t.same(comparisons.slow, { ratio: 0.8, interval: null, pWorse: null, pBetter: null, rounds: 0 }, 'one round together: no pairs to test')
  t.equal(comparisons.fixed.interval, null, 'measured apart: no interval')
  t.equal(comparisons.fixed.ratio, 8000 / 60, 'the ratio of the medians')
  t.equal(speedVerdict(comparisons), "about as slow as slow/: 53.3 times fast/'s CPU per request")
})

// The servers run without tap's coverage, as a participant's do.
function withoutCoverage (t) {
  const coverage = process.env.NODE_V8_COVERAGE
  delete process.env.NODE_V8_COVERAGE
  t.teardown(() => { if (coverage !== undefined) process.env.NODE_V8_COVERAGE = coverage })
}

// The one-line fix is fast/'s code: verify, as a participant runs it, must
// call the two alike. With verify's own protocol (SPEED_PROTOCOL), on
// purpose: in shorter windows without warm-up, CPU per request measures
// V8's warm-up more than the code (docs/workshop.md, "The speed verdict").
t.test('verify\'s speed comparison on the one-line fix: its lines, and "about as fast as fast/"', {
  skip: skipOffMainLine("verify's speed verdict is a measurement")
}, async (t) => {
  const copy = oneLineFixCopy(t, 'workshop-test-as-fast')
  const name = path.basename(copy)
  withoutCoverage(t)
  let output = ''
  const { code } = await verify(copy, { level: 1, speed: true, print: (text) => { output += text + '\n' } })
  t.equal(code, 0, 'contract and level 1 hold')
  t.match(output, new RegExp(`\\nSpeed: ${name} beside slow, fast and fixed, each in a fresh process: ${name}, fast and fixed loaded at the same time, .* ${SPEED_PROTOCOL.rounds} rounds; slow by requests`))
  const cpu = {}
  for (const target of [`${name} (yours)`, 'slow', 'fast', 'fixed']) {
    const row = new RegExp(`\\n  ${target.replace(/[()]/g, '\\$&')} +[\\d,.]+ req/s +([\\d,.]+) µs CPU per request`).exec(output)
    t.ok(row, `${target}: a line with its req/s and CPU per request`)
    cpu[target] = row?.[1]
  }
  const interval = '\\([\\d.]+ to [\\d.]+\\)'
  t.match(output, new RegExp(`\\n {2}CPU per request: [\\d.]+ x fast/'s ${interval}, [\\d.]+ x fixed/'s ${interval}, [\\d.]+ x slow/'s \\(in brackets 90 % intervals\\)\\n`))
  t.match(output, new RegExp(`\\n${name}: about as fast as fast/: costs [\\d.]+ times fixed/'s CPU per request ${interval}\\n`), `the verdict (µs a request: ${Object.entries(cpu).map(([target, micros]) => `${target} ${micros}`).join(', ')})`)
})

// Issue 47: a copy that passes every level but serializes and hashes its
// body on every request (1.7 to 2.2 times fixed/'s CPU per request here)
// was called as fast as fixed/ when its rounds strayed as far apart.
t.test('verify\'s speed tells a copy that still hashes every body from fixed/', {
  skip: skipOffMainLine("verify's speed verdict is a measurement")
}, async (t) => {
  const copy = hashingCopy(t, 'workshop-test-hashing')
  withoutCoverage(t)
  const { comparisons, verdict } = await compareSpeed(copy)
  t.match(verdict, /^(between fixed\/ and fast\/|about as fast as fast\/): costs [\d.]+ times fixed\/'s CPU per request \([\d.]+ to [\d.]+\)$/)
  t.ok(comparisons.fixed.interval[0] > 1.1, `its interval above fixed/'s band: ${comparisons.fixed.interval.map((v) => v.toFixed(2)).join(' to ')}`)
})
