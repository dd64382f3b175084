'use strict'

// The last part of `npm run verify`: the participant's server beside fixed
// and fast, the three loaded at the same time in fresh processes, round
// after round (bench/measure/side-by-side.js), and slow by request counts;
// then a verdict in words, judged on the rounds' ratios as bench:compare
// judges its pairs (bench/judge/stats.js, pairedChange).
//
// Why side by side: measured one after the other, as the benchmark
// measures, a copy that still serialized and hashed every body (1.37 times
// fixed/'s CPU per request) was called as fast as fixed/ in two runs of
// four on Node 26, the rounds of each server straying as far apart as the
// two differed. Loaded together, the machine's ups and downs fall on all
// three, and what is left of a round's ratio is the processes' own spread.

const { TARGETS, targetsIn } = require('../bench/protocol/targets')
const { measureSideBySide } = require('../bench/measure/side-by-side')
const { median, pairedChange, summarizeTargets } = require('../bench/judge/stats')
const { round } = require('../tooling/number-text')

// A verdict, not a table to publish: many short rounds rather than a few
// long ones, since the spread of a round's ratio comes with its fresh
// processes more than with its length (docs/ci-gate.md, "Its power"), and
// each round more lets the signed-rank test shrug off a stray one
// (docs/workshop.md, "The speed verdict", has the measurements that chose
// it).
const SPEED_PROTOCOL = { connections: 50, warmup: 1, duration: 1.5, rounds: 8, warmupRequests: 200, requests: 100 }
// The false-alarm rate of each one-sided test, and so a 90 % interval.
const SPEED_ALPHA = 0.05
// yours is "about as fast as" fixed/ within 10 % of its CPU per request,
// as fast/ within -20 % / +25 % (a factor of 1.25 either way).
const FIXED_BAND = 1.1
const FAST_BAND = 1.25
// A server that costs half of slow's or more is slow's kind.
const AS_SLOW_AS_SLOW = 0.5

const YOURS = 'yours'
// What yours runs beside (the catalogue's `speed` set: slow, fast and fixed).
const BESIDE = targetsIn('speed')

/**
 * Measure the server at `entry` against slow, fast and fixed. `leaking`
 * says to measure it by request counts, as slow is. The servers measured
 * by time (yours, fast and fixed, unless yours leaks) are loaded together
 * in each of `protocol.rounds` rounds, the first of them rotating; those
 * measured by counts (slow, and a leaking yours) together once after them:
 * slow costs a hundred times the others, so one round places it, and each
 * takes seconds. `onRun(run)` is called after each server's round.
 * Resolves to { protocol, runs, summaries, comparisons, verdict }.
 */
async function compareSpeed (entry, { leaking = false, protocol = SPEED_PROTOCOL, onRun = () => {} } = {}) {
  const definitions = { ...Object.fromEntries(BESIDE.map((name) => [name, TARGETS[name]])), [YOURS]: { entry, leaking } }
  const names = [YOURS, ...BESIDE]
  const timed = names.filter((name) => !definitions[name].leaking)
  const counted = names.filter((name) => definitions[name].leaking)
  const side = (name) => ({ ...definitions[name], name, label: `verify-${name}` })
  const runs = []
  const measure = async (group, roundNumber, by) => {
    const measured = await measureSideBySide(group.map(side), protocol)
    for (const name of group) {
      const run = { target: name, round: roundNumber, by, ...measured[name] }
      runs.push(run)
      onRun(run)
    }
  }
  for (let roundNumber = 1; roundNumber <= protocol.rounds; roundNumber++) {
    await measure(timed.map((_, i) => timed[(i + roundNumber - 1) % timed.length]), roundNumber, 'time')
  }
  if (counted.length > 0) await measure(counted, 1, 'count')
  return { protocol: { ...protocol, targets: names }, runs, ...judgeSpeed(runs) }
}

/**
 * The judgement on `runs` ({ target, round, by, cpuMicrosPerRequest, ... },
 * as compareSpeed measures them): the medians of each server
 * (`summaries`, judge/stats.js's summarizeTargets), yours against each
 * variant (`comparisons`, speedComparisons) and the verdict in words.
 */
function judgeSpeed (runs, { alpha = SPEED_ALPHA } = {}) {
  const summaries = summarizeTargets(runs, [YOURS, ...BESIDE])
  const comparisons = speedComparisons(runs, { alpha })
  return { summaries, comparisons, verdict: speedVerdict(comparisons, { alpha }) }
}

/**
 * yours against each variant by CPU per request, { [variant]: { ratio,
 * interval, pWorse, pBetter, rounds } }. Where yours and the variant were
 * measured together (the same `by`, in two rounds or more), as
 * bench:compare judges a pair: the Hodges-Lehmann estimate of the rounds'
 * ratios, and the 1 - 2 alpha interval and one-sided p-values of the
 * signed-rank test. Else the ratio of their medians, with interval and
 * p-values null: measured apart, their rounds are no pairs.
 */
function speedComparisons (runs, { alpha = SPEED_ALPHA } = {}) {
  const own = (target) => runs.filter((run) => run.target === target)
  const yours = own(YOURS)
  return Object.fromEntries(BESIDE.map((variant) => {
    const theirs = own(variant)
    const pairs = yours
      .map((run) => [theirs.find((other) => other.round === run.round && other.by === run.by), run])
      .filter(([other]) => other !== undefined)
    const change = pairs.length >= 2
      ? pairedChange(pairs.map(([other]) => other.cpuMicrosPerRequest), pairs.map(([, run]) => run.cpuMicrosPerRequest), { alpha })
      : null
    if (change?.resolvable) {
      const { rounds, interval: [low, high], pWorse, pBetter } = change
      return [variant, { ratio: 1 + change.change, interval: [1 + low, 1 + high], pWorse, pBetter, rounds }]
    }
    const cpu = (list) => median(list.map((run) => run.cpuMicrosPerRequest))
    return [variant, { ratio: cpu(yours) / cpu(theirs), interval: null, pWorse: null, pBetter: null, rounds: 0 }]
  }))
}

/**
 * A verdict in words from `comparisons` (speedComparisons: yours against
 * slow, fast and fixed): CPU per request, not req/s, because on a laptop
 * whose cores the load generator shares it is what the server alone
 * decides. Against fixed/ first: "about as fast as" it when the estimate
 * is within 10 % of it; a difference named only when the rounds show it at
 * `alpha` (a ratio measured apart, with no test, is taken as it is). An
 * estimate more than 10 % under fixed/'s that the rounds do not show is
 * still "about as fast as" it; one more than 10 % over it is "not told
 * apart": a copy that costs more must not be told it matched fixed/ (issue
 * 47), while a plain copy of fixed/ strays that far below it in a round or
 * two on a busy machine. A server that costs more is then placed against
 * fast/ and slow/.
 */
function speedVerdict ({ fixed, fast, slow }, { alpha = SPEED_ALPHA } = {}) {
  if (![fixed, fast, slow].every((c) => c && Number.isFinite(c.ratio) && c.ratio > 0)) return 'not measured: a server answered nothing'
  const within = (c, band) => Math.abs(Math.log(c.ratio)) <= Math.log(band)
  const shows = (p) => p === null || p < alpha
  const againstFixed = `${round(fixed.ratio)} times fixed/'s CPU per request${intervalText(fixed)}`
  if (within(fixed, FIXED_BAND)) return `about as fast as fixed/: ${againstFixed}`
  if (fixed.ratio < 1 && shows(fixed.pBetter)) {
    const less = (ratio) => Math.round((1 - ratio) * 100)
    const interval = fixed.interval ? ` (${less(fixed.interval[1])} to ${less(fixed.interval[0])} %)` : ''
    return `faster than fixed/: ${less(fixed.ratio)} % less CPU per request${interval}`
  }
  // Cheaper than fixed/ by more than 10 %, but not surely: it costs no
  // more than fixed/ as far as the rounds show, and that is the question.
  if (fixed.ratio < 1) return `about as fast as fixed/: ${againstFixed}`
  // Costlier by more than 10 %, but not surely: no match claimed either.
  if (!shows(fixed.pWorse)) return `not told apart from fixed/ in this run: ${againstFixed}; run it again with less running beside it`
  if (within(fast, FAST_BAND)) return `about as fast as fast/: costs ${againstFixed}`
  if (fast.ratio < 1) return `between fixed/ and fast/: costs ${againstFixed}`
  if (slow.ratio >= AS_SLOW_AS_SLOW) return `about as slow as slow/: ${round(fast.ratio)} times fast/'s CPU per request`
  return `slower than fast/: ${round(fast.ratio)} times its CPU per request`
}

// ` (low to high)` for a comparison with an interval, else nothing.
function intervalText ({ interval }) {
  return interval ? ` (${round(interval[0])} to ${round(interval[1])})` : ''
}

module.exports = { compareSpeed, judgeSpeed, speedComparisons, speedVerdict, intervalText, SPEED_PROTOCOL, SPEED_ALPHA, YOURS, BESIDE }
