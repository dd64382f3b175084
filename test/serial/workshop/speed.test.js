'use strict'

// verify's speed comparison (workshop/speed.js) and its verdict in words.
// The copy that still hashes every body, a copy of fixed/ and the one-line
// fix judged from real rounds at this machine's mix of costs and at four
// others: test/machines/verify-speed.test.js. The workshop's other commands:
// workshop/commands.test.js.

const t = require('tap')
const path = require('node:path')
const { verify } = require('../../../workshop/verify')
const { compareSpeed, judgeSpeed, speedComparisons, speedVerdict, SPEED_SENTENCES, RUN_IT_AGAIN, SPEED_PROTOCOL } = require('../../../workshop/speed')
const { readmeOutput, unmatchedLine } = require('../../readme-output')
const { skipOffMainLine } = require('../../skips')
const { oneLineFixCopy } = require('../../workshop/copies')

// verify's speed: eight to twelve rounds of three servers, each 1 + 1.5 s,
// and slow by counts, twice over: more than tap's 30 s a file.
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

// A verdict as speedVerdict returns it: the sentence, whether it asks for another run, the figures' lines.
const said = (sentence, figures, { again = false } = {}) => ({ sentence, again, figures })

t.test('the verdict: yours placed between fixed/ and fast/, only as far as the rounds show it', async (t) => {
  const paired = (ratio, interval, { pWorse = 1, pBetter = 1 } = {}) => ({ ratio, interval, pWorse, pBetter, rounds: 8 })
  const apart = (ratio) => ({ ratio, interval: null, pWorse: null, pBetter: null, rounds: 0 })
  const slow = apart(0.01)
  // fast/ told apart from fixed/, and yours at `share` of the way between.
  const between = (share, interval, fastOverFixed = paired(1.86, [1.75, 1.98], { pWorse: 0.004 })) => ({ rounds: 8, share, interval, resolvable: true, fastOverFixed })
  t.same(speedVerdict({ fixed: paired(1.04, [0.98, 1.1]), fast: paired(0.56, [0.52, 0.6], { pBetter: 0.004 }), slow }, between(0.05, [-0.03, 0.12])),
    said('yours is about as fast as fixed/.', ["yours costs 1.04 times fixed/'s CPU per request (0.980 to 1.10)."]))
  t.same(speedVerdict({ fixed: paired(1.37, [1.28, 1.45], { pWorse: 0.004 }), fast: paired(0.6, [0.55, 0.66], { pBetter: 0.004 }), slow }, between(0.43, [0.33, 0.52])),
    said('yours is between fixed/ and fast/.', ["yours costs 1.37 times fixed/'s CPU per request (1.28 to 1.45)."]), 'issue 47: a copy that still hashes')
  t.same(speedVerdict({ fixed: paired(1.08, [1.05, 1.11], { pWorse: 0.004 }), fast: paired(0.9, [0.87, 0.93], { pBetter: 0.004 }), slow }, between(0.4, [0.27, 0.55], paired(1.2, [1.16, 1.24], { pWorse: 0.004 }))),
    said('yours is between fixed/ and fast/.', ["yours costs 1.08 times fixed/'s CPU per request (1.05 to 1.11)."]),
    'the same copy where hashing is four times cheaper: within 10 % of fixed/, still 0.4 of the way to fast/')
  t.same(speedVerdict({ fixed: paired(2.2, [2.1, 2.3], { pWorse: 0.004 }), fast: paired(0.95, [0.9, 1.02]), slow }, between(0.97, [0.88, 1.05])),
    said('yours is about as fast as fast/.', ["yours costs 2.20 times fixed/'s CPU per request (2.10 to 2.30)."]))
  t.same(speedVerdict({ fixed: paired(0.75, [0.7, 0.8], { pBetter: 0.004 }), fast: paired(0.3, [0.28, 0.33], { pBetter: 0.004 }), slow }, between(-0.3, [-0.36, -0.24])),
    said('yours is faster than fixed/.', ['yours uses 25 % less CPU per request than fixed/ (20 to 30 %).']))
  t.same(speedVerdict({ fixed: paired(0.86, [0.76, 1.0], { pBetter: 0.03 }), fast: paired(0.45, [0.4, 0.5], { pBetter: 0.004 }), slow }, between(-0.09, [-0.21, 0.01])),
    said('yours is about as fast as fixed/.', ["yours costs 0.860 times fixed/'s CPU per request (0.760 to 1.00)."]),
    'a copy of fixed/ on a busy machine: estimated 14 % under fixed/, not shown beyond 10 %')
  t.same(speedVerdict({ fixed: paired(1.25, [0.9, 1.7], { pWorse: 0.15 }), fast: paired(0.55, [0.4, 0.8], { pBetter: 0.01 }), slow }, between(0.29, [-0.12, 0.81])),
    said('This run could not tell yours from fixed/.', ["yours costs 1.25 times fixed/'s CPU per request (0.900 to 1.70)."], { again: true }),
    'costlier, but the rounds do not show it')
  t.same(speedVerdict({ fixed: paired(1.06, [0.97, 1.12], { pWorse: 0.09 }), fast: paired(0.58, [0.55, 0.62], { pBetter: 0.004 }), slow }, between(0.07, [-0.05, 0.31])),
    said('This run could not tell yours from fixed/.', ["yours costs 1.06 times fixed/'s CPU per request (0.970 to 1.12)."], { again: true }),
    'near fixed/, but not shown under a quarter of the way: no match claimed')
  t.same(speedVerdict({ fixed: paired(1.06, [1.01, 1.12], { pWorse: 0.03 }), fast: paired(0.58, [0.55, 0.62], { pBetter: 0.004 }), slow }, between(0.07, [-0.05, 0.31])),
    said('yours is between fixed/ and fast/.', ["yours costs 1.06 times fixed/'s CPU per request (1.01 to 1.12)."]),
    'near fixed/, shown costlier, and not shown under a quarter of the way')
  t.same(speedVerdict({ fixed: paired(1.67, [1.12, 2.23], { pWorse: 0.004 }), fast: paired(0.87, [0.6, 1.3]), slow }, between(0.8, [0.45, 1.44])),
    said('yours costs more than fixed/, but this run could not place it against fast/.', ["yours costs 1.67 times fixed/'s CPU per request (1.12 to 2.23)."], { again: true }),
    'a copy that hashes, on a busy machine: told apart from fixed/, not shown nearer fast/ nor cheaper than it')
  t.same(speedVerdict({ fixed: paired(1.99, [1.77, 2.21], { pWorse: 0.004 }), fast: paired(0.93, [0.85, 0.99], { pBetter: 0.04 }), slow }, between(0.71, [0.55, 0.95])),
    said('yours costs more than fixed/, but this run could not place it against fast/.', ["yours costs 1.99 times fixed/'s CPU per request (1.77 to 2.21)."], { again: true }),
    'the one-line fix, estimated under three quarters and shown merely cheaper than fast/: not "between"')
  t.same(speedVerdict({ fixed: paired(0.89, [0.82, 1.13], { pBetter: 0.2 }), fast: paired(0.31, [0.28, 0.35], { pBetter: 0.004 }), slow }, between(-0.08, [-0.15, 0.09])),
    said('yours is about as fast as fixed/.', ["yours costs 0.890 times fixed/'s CPU per request (0.820 to 1.13)."]), 'under fixed/, not surely: no more than fixed/ (a plain copy on Node 24 beside cpu-hog)')
  t.same(speedVerdict({ fixed: paired(1.1, [0.98, 1.2], { pWorse: 0.1 }), fast: paired(1.04, [0.93, 1.14]), slow }, between(1.9, [-Infinity, Infinity], paired(1.05, [0.95, 1.16], { pWorse: 0.2 }))),
    said('This run could not tell fast/ from fixed/, so it cannot place yours between them.', ["yours costs 1.10 times fixed/'s CPU per request (0.980 to 1.20).", "fast/ costs 1.05 times fixed/'s CPU per request (0.950 to 1.16)."], { again: true }),
    'fast/ and fixed/ not told apart: no place between them, and no verdict')
  t.same(speedVerdict({ fixed: apart(400), fast: apart(100), slow: apart(0.9) }, null), said('yours is about as slow as slow/.', ["yours costs 100 times fast/'s CPU per request."]),
    'a leaking copy, measured apart: by its ratios alone')
  t.same(speedVerdict({ fixed: apart(20), fast: apart(5), slow: apart(0.04) }, null), said('yours is slower than fast/.', ["yours costs 5.00 times fast/'s CPU per request."]))
  t.same(speedVerdict({ fixed: apart(0), fast: apart(0), slow }, null), said('yours could not be measured: a server answered nothing.', []))
})

t.test('the rounds judged as pairs: the machine\'s ups and downs cancel, the code\'s cost does not', async (t) => {
  // The reported case: yours 1.37 times fixed/ in every round, the rounds
  // themselves 0.8 to 1.4 times apart (measured one after the other, such
  // a run's spread called the two alike); fast/ 1.86 times fixed/.
  const hashing = judgeSpeed(madeUpRuns({ yours: rounds(1.37 * 60, OWN), fast: rounds(1.86 * 60, OTHER_OWN), fixed: rounds(60, OTHER_OWN) }))
  t.equal(hashing.verdict.sentence, 'yours is between fixed/ and fast/.')
  t.match(hashing.verdict.figures, [/^yours costs 1\.3\d times fixed\/'s CPU per request \(1\.\d+ to 1\.\d+\)\.$/])
  t.ok(hashing.comparisons.fixed.interval[0] > 1.25, `the interval stays above 1.25: ${hashing.comparisons.fixed.interval}`)
  t.equal(hashing.comparisons.fixed.pWorse, 1 / 256, 'every round costlier: the smallest p-value of 8 rounds')
  t.ok(hashing.between.share > 0.35 && hashing.between.share < 0.5, `0.43 of the way from fixed/ to fast/: ${hashing.between.share}`)
  t.ok(hashing.between.interval[0] > 0.25, `shown past a quarter of the way: ${hashing.between.interval}`)

  // The same code on a machine that hashes four times faster: what fast/
  // and the copy pay over fixed/ both shrink to a quarter, the ratio to
  // fixed/ toward 1 (1.09), the share not.
  const cheapHashing = judgeSpeed(madeUpRuns({ yours: rounds(60 + 0.37 * 60 / 4, OWN), fast: rounds(60 + 0.86 * 60 / 4, OTHER_OWN), fixed: rounds(60, OTHER_OWN) }))
  t.equal(cheapHashing.verdict.sentence, 'yours is between fixed/ and fast/.')
  t.match(cheapHashing.verdict.figures, [/^yours costs 1\.0\d times fixed\/'s CPU per request/])
  t.ok(Math.abs(cheapHashing.between.share - hashing.between.share) < 0.1, `the share moves little: ${cheapHashing.between.share} against ${hashing.between.share}`)

  const copyOfFixed = judgeSpeed(madeUpRuns({ yours: rounds(60, OWN), fast: rounds(1.86 * 60, OTHER_OWN), fixed: rounds(60, OTHER_OWN) }))
  t.equal(copyOfFixed.verdict.sentence, 'yours is about as fast as fixed/.')
  t.match(copyOfFixed.verdict.figures, [/^yours costs (0\.9\d+|1\.0\d) times fixed\/'s CPU per request/])

  const oneLineFix = judgeSpeed(madeUpRuns({ yours: rounds(1.86 * 60, OWN), fast: rounds(1.86 * 60, OTHER_OWN), fixed: rounds(60, OTHER_OWN) }))
  t.equal(oneLineFix.verdict.sentence, 'yours is about as fast as fast/.')
  t.match(oneLineFix.verdict.figures, [/^yours costs 1\.\d+ times fixed\/'s CPU per request/])

  const summaries = hashing.summaries.map(({ target, rounds }) => [target, rounds])
  t.same(summaries, [['yours', 8], ['slow', 1], ['fast', 8], ['fixed', 8]], 'the table: every server, its rounds')
})

t.test('more rounds while the rounds do not place yours, up to the protocol\'s most', async (t) => {
  // A stand-in for side-by-side.js: each server's CPU per request from
  // `cost(name, round)`, as the rounds come.
  const standIn = (cost) => {
    let round = 0
    return async (sides) => {
      if (sides.every((side) => !side.leaking)) round++
      return Object.fromEntries(sides.map((side) => [side.name, { cpuMicrosPerRequest: cost(side.name, round), requestsPerSecond: 1000 }]))
    }
  }
  const jitter = (round) => 1 + 0.03 * Math.sin(round * 2.3)
  const clear = await compareSpeed('fixed', { measureSides: standIn((name, round) => ({ yours: 60, fixed: 60, fast: 112, slow: 9000 }[name] * jitter(name === 'yours' ? round + 7 : round))) })
  t.equal(clear.protocol.rounds, SPEED_PROTOCOL.rounds, `placed after the first ${SPEED_PROTOCOL.rounds} rounds: ${clear.verdict.sentence}`)
  t.equal(clear.verdict.sentence, 'yours is about as fast as fixed/.')

  // One round disturbed (yours alone slowed by half): one rank, not the
  // run. In eight rounds it keeps the interval from showing yours under a
  // quarter of the way, so four more are measured, and place it.
  const disturbed = await compareSpeed('fixed', { measureSides: standIn((name, round) => ({ yours: 60, fixed: 60, fast: 112, slow: 9000 }[name] * jitter(name === 'yours' ? round + 7 : round) * (name === 'yours' && round === 5 ? 1.5 : 1))) })
  t.equal(disturbed.protocol.rounds, SPEED_PROTOCOL.rounds + SPEED_PROTOCOL.moreRounds, `not placed by ${SPEED_PROTOCOL.rounds} rounds, by ${disturbed.protocol.rounds}`)
  t.equal(disturbed.verdict.sentence, 'yours is about as fast as fixed/.')

  // fast/ and fixed/ a coin toss apart: never placed, so every round the
  // protocol allows, and then said so.
  const coin = (round) => (round % 2 === 0 ? 1.04 : 0.96)
  const blurred = await compareSpeed('fixed', { measureSides: standIn((name, round) => ({ yours: 64, fixed: 60, fast: 60 * coin(round), slow: 9000 }[name])) })
  t.equal(blurred.protocol.rounds, SPEED_PROTOCOL.maxRounds, 'every round allowed')
  t.match(blurred.verdict, { sentence: /^This run could not tell fast\/ from fixed\//, again: true })
})

t.test('a leaking copy, measured by counts beside slow: its ratios are the medians\'', async (t) => {
  const steady = (micros) => new Array(8).fill(micros)
  const comparisons = speedComparisons(madeUpRuns({ fast: steady(150), fixed: steady(60) }, { slow: 10000, leaking: 8000 }))
  t.same(comparisons.slow, { ratio: 0.8, interval: null, pWorse: null, pBetter: null, rounds: 0 }, 'one round together: no pairs to test')
  t.equal(comparisons.fixed.interval, null, 'measured apart: no interval')
  t.equal(comparisons.fixed.ratio, 8000 / 60, 'the ratio of the medians')
  t.same(speedVerdict(comparisons, null), said('yours is about as slow as slow/.', ["yours costs 53.3 times fast/'s CPU per request."]))
})

// The verdicts that place nothing and say so: on a machine busier than
// the difference is large, verify says "run it again" rather than guess.
// The real-server test below takes one of these or the right place, never
// a wrong one; the stand-in rounds above hold when each is given.
const ABSTAINS = ['cannot tell', 'costlier', 'not told apart']

// The servers run without tap's coverage, as a participant's do.
function withoutCoverage (t) {
  const coverage = process.env.NODE_V8_COVERAGE
  delete process.env.NODE_V8_COVERAGE
  t.teardown(() => { if (coverage !== undefined) process.env.NODE_V8_COVERAGE = coverage })
}

// The one-line fix is fast/'s code: verify, as a participant runs it, must
// call the two alike. With verify's own protocol (SPEED_PROTOCOL), on
// purpose: in shorter windows without warm-up, CPU per request measures
// V8's warm-up more than the code (docs/verify.md, "The speed verdict").
t.test('verify\'s speed comparison on the one-line fix: its lines, and "about as fast as fast/"', {
  skip: skipOffMainLine("verify's speed verdict is a measurement")
}, async (t) => {
  const copy = oneLineFixCopy(t, 'workshop-test-as-fast')
  const name = path.basename(copy)
  withoutCoverage(t)
  let output = ''
  const { code } = await verify(copy, { level: 1, speed: true, print: (text) => { output += text + '\n' } })
  t.equal(code, 0, 'contract and level 1 hold')
  t.match(output, new RegExp(`\\nSpeed: ${name}, fast and fixed loaded at the same time, each in a fresh process, in ${SPEED_PROTOCOL.rounds} to ${SPEED_PROTOCOL.maxRounds} rounds\\.\\n {2}Each round: .*\\n {2}slow measured by requests, once: .*\\n`))
  const cpu = {}
  for (const target of [`${name} (yours)`, 'slow', 'fast', 'fixed']) {
    const row = new RegExp(`\\n  ${target.replace(/[()]/g, '\\$&')} +[\\d,.]+ req/s +([\\d,.]+) µs CPU per request`).exec(output)
    t.ok(row, `${target}: a line with its req/s and CPU per request`)
    cpu[target] = row?.[1]
  }
  const interval = '\\([\\d.]+ to [\\d.]+\\)'
  t.match(output, new RegExp(`\\n {2}${name}'s CPU per request: [\\d.]+ x fast/'s ${interval}\\n +[\\d.]+ x fixed/'s ${interval}\\n +[\\d.]+ x slow/'s\\n`))
  t.match(output, new RegExp(`\\n {2}Between fixed/ \\(0\\) and fast/ \\(1\\): -?[\\d.]+ \\(-?[\\d.]+ to -?[\\d.]+\\); fast/ [\\d.]+ x fixed/'s ${interval}\\n {2}In brackets: 90 % intervals over (8|12) rounds\\.\\n$`), 'where yours sits between fixed/ and fast/')
  // The verdict first, a sentence of its own: "about as fast as fast/", or one that places nothing and asks for another run.
  const places = ['as fast', ...ABSTAINS].map((place) => SPEED_SENTENCES[place]('mine'))
  const asParticipant = output.replaceAll(name, 'mine')
  const verdict = /\n\n(.*)\n/.exec(asParticipant.slice(asParticipant.lastIndexOf('\nSpeed: ')))?.[1]
  t.ok(places.includes(verdict), `the verdict: ${verdict} (µs a request: ${Object.entries(cpu).map(([target, micros]) => `${target} ${micros}`).join(', ')})`)
  const after = asParticipant.split('\n').slice(asParticipant.split('\n').lastIndexOf(verdict) + 1)
  if (verdict !== places[0]) t.equal(after.shift(), RUN_IT_AGAIN, 'and asks for another run')
  t.match(after[0], new RegExp(`^ {2}mine costs [\\d.]+ times fixed/'s CPU per request ${interval}\\.$`), 'then its figures')
  // README step 6 shows a full run's speed lines: the ones from "Speed:" on, held by shape to this run's, the
  // verdict any of those it may print.
  const shown = readmeOutput('6', 'npm run verify')
  const speedLines = shown.slice(shown.findIndex((line) => line.startsWith('Speed: ')))
  t.equal(unmatchedLine(speedLines, asParticipant, { vary: [places] }), null, "README step 6's speed lines, by shape")
})
