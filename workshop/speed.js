'use strict'

// The last part of `npm run verify`: the participant's server beside fixed
// and fast, the three loaded at the same time in fresh processes, round
// after round (bench/measure/side-by-side.js), and slow by request counts;
// then a verdict in words, judged on the rounds as bench:compare judges
// its pairs (bench/judge/stats.js), and on where yours sits between fixed/
// and fast/ (share.js).
//
// Why side by side: measured one after the other, as the benchmark
// measures, a copy that still serialized and hashed every body (clearly
// dearer than fixed/ per request) was called as fast as fixed/ in some
// runs, the rounds of each server straying as far apart as the two
// differed. Loaded together, the machine's ups and downs fall on all
// three, and what is left of a round's ratio is the processes' own spread.
//
// Why a share of the way from fixed/ to fast/, not a band around fixed/'s
// CPU: what step 7 removes is a serialization and hashes per request, and
// on a machine that hashes fast that whole cost is small. On a CPU with
// SHA extensions fast/ cost less than twice fixed/, where another CPU put
// it at more, and the copy that still hashes came close enough to fixed/
// that the band of 10 % the verdict then drew around fixed/ did not tell
// them apart: a ratio to fixed/ moves with the machine's hashing, a place
// between fixed/ and fast/ does not.

const { TARGETS, targetsIn } = require('../bench/protocol/targets')
const { measureSideBySide } = require('../bench/measure/side-by-side')
const { median, pairedChange, summarizeTargets } = require('../bench/judge/stats')
const { shareBetween } = require('./share')
const { round } = require('../tooling/number-text')

// A verdict, not a table to publish: many short rounds rather than a few
// long ones, since the spread of a round's ratio comes with its fresh
// processes more than with its length (docs/ci-gate.md, "Its power"), and
// each round more lets the signed-rank test shrug off a stray one
// (docs/workshop.md, "The speed verdict", says why). When `rounds` do not
// place yours, `moreRounds` more at a time, up to `maxRounds`: a noisy
// machine pays with time (about 3 s a round), not with a wrong verdict.
// Twelve, not the signed-rank test's limit of 16: its exact p-values
// enumerate every sign of every round (bench/judge/stats.js),
// and judging 16 rounds took 4 s a comparison, 12 a thirtieth of that.
const SPEED_PROTOCOL = { connections: 50, warmup: 1, duration: 1.5, rounds: 8, moreRounds: 4, maxRounds: 12, warmupRequests: 200, requests: 100 }
// The false-alarm rate of each one-sided test, and so a 90 % interval.
const SPEED_ALPHA = 0.05
// Where yours sits between fixed/ (0) and fast/ (1), as far as the rounds
// show it: "about as fast as fixed/" under a quarter of the way; "about as
// fast as fast/" from three quarters to one and a half, and nearer fast/
// than fixed/; "between" them, under three quarters.
const FIXED_SHARE = 0.25
const FAST_SHARES = [0.75, 1.5]
const HALF_WAY = 0.5
// "faster than fixed/" by more than 10 % of its CPU per request; a server
// measured apart from fast/ and fixed/ (by counts, as it leaks) is judged
// by its ratios: about as fast as fixed/ within 10 %, as fast/ within a
// factor of 1.25.
const FIXED_BAND = 1.1
const FAST_BAND = 1.25
// A server that costs half of slow's or more is slow's kind.
const AS_SLOW_AS_SLOW = 0.5

const YOURS = 'yours'
// What yours runs beside (the catalogue's `speed` set: slow, fast and fixed).
const BESIDE = targetsIn('speed')
// The two a server is placed between, at 0 and at 1: fixed/ and fast/.
const [SHARE_FROM, SHARE_TO] = targetsIn('speedBetween')

/**
 * Measure the server at `entry` against slow, fast and fixed. `leaking`
 * says to measure it by request counts, as slow is. The servers measured
 * by time (yours, fast and fixed, unless yours leaks) are loaded together
 * in each of `protocol.rounds` rounds, the first of them rotating, and in
 * `protocol.moreRounds` more at a time, up to `protocol.maxRounds`, while
 * the rounds do not place yours (speedDecided); those measured by counts
 * (slow, and a leaking yours) together once after them: slow costs a
 * hundred times the others, so one round places it, and each takes
 * seconds. `onRun(run)` is called after each server's round;
 * `measureSides` measures one (side-by-side.js's, a stand-in in tests).
 * Resolves to { protocol, runs, summaries, comparisons, between, verdict }.
 */
async function compareSpeed (entry, { leaking = false, protocol = SPEED_PROTOCOL, onRun = () => {}, measureSides = measureSideBySide } = {}) {
  const definitions = { ...Object.fromEntries(BESIDE.map((name) => [name, TARGETS[name]])), [YOURS]: { entry, leaking } }
  const names = [YOURS, ...BESIDE]
  const timed = names.filter((name) => !definitions[name].leaking)
  const counted = names.filter((name) => definitions[name].leaking)
  const side = (name) => ({ ...definitions[name], name, label: `verify-${name}` })
  const runs = []
  const measure = async (group, roundNumber, by) => {
    const measured = await measureSides(group.map(side), protocol)
    for (const name of group) {
      const run = { target: name, round: roundNumber, by, ...measured[name] }
      runs.push(run)
      onRun(run)
    }
  }
  const rounds = await measureRounds(timed, {
    protocol,
    // A leaking yours is not among them: nothing to place between fixed/ and fast/.
    more: !leaking,
    measureRound: (group, roundNumber) => measure(group, roundNumber, 'time'),
    decided: () => speedDecided(runs)
  })
  if (counted.length > 0) await measure(counted, 1, 'count')
  return { protocol: { ...protocol, rounds, targets: names }, runs, ...judgeSpeed(runs) }
}

/**
 * Rounds of the servers `names`, loaded together, the first rotating from
 * one round to the next: `protocol.rounds`, then, where `more`,
 * `protocol.moreRounds` more at a time up to `protocol.maxRounds` while
 * `decided()` is false. `measureRound(names, roundNumber)` measures one
 * round, in that order. Resolves to the number of rounds measured.
 */
async function measureRounds (names, { protocol, more = true, measureRound, decided }) {
  const round = (number) => measureRound(names.map((_, i) => names[(i + number - 1) % names.length]), number)
  let rounds = 0
  for (; rounds < protocol.rounds; rounds++) await round(rounds + 1)
  const maxRounds = more ? Math.max(rounds, protocol.maxRounds ?? rounds) : rounds
  while (rounds < maxRounds && !decided()) {
    const last = Math.min(rounds + (protocol.moreRounds ?? 1), maxRounds)
    for (; rounds < last; rounds++) await round(rounds + 1)
  }
  return rounds
}

/**
 * The judgement on `runs` ({ target, round, by, cpuMicrosPerRequest, ... },
 * as compareSpeed measures them): the medians of each server
 * (`summaries`, judge/stats.js's summarizeTargets), yours against each
 * variant (`comparisons`, speedComparisons), where yours sits between
 * fixed/ and fast/ (`between`, speedBetween) and the verdict in words.
 */
function judgeSpeed (runs, { alpha = SPEED_ALPHA } = {}) {
  const summaries = summarizeTargets(runs, [YOURS, ...BESIDE])
  const comparisons = speedComparisons(runs, { alpha })
  const between = speedBetween(runs, { alpha })
  return { summaries, comparisons, between, verdict: speedVerdict(comparisons, between, { alpha }) }
}

// Whether the timed rounds so far place yours (slow, measured after them,
// is not needed for that): compareSpeed measures more rounds until they do.
function speedDecided (runs, { alpha = SPEED_ALPHA } = {}) {
  const category = placeYours(speedComparisons(runs, { alpha }), speedBetween(runs, { alpha }), { alpha })
  return !['not told apart', 'costlier', 'cannot tell'].includes(category)
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
  return Object.fromEntries(BESIDE.map((variant) => [variant, compareTargets(runs, YOURS, variant, { alpha })]))
}

// `of` against `over` by CPU per request, as speedComparisons says.
function compareTargets (runs, of, over, { alpha }) {
  const own = (target) => runs.filter((run) => run.target === target)
  const ofRuns = own(of)
  const overRuns = own(over)
  const pairs = ofRuns
    .map((run) => [overRuns.find((other) => other.round === run.round && other.by === run.by), run])
    .filter(([other]) => other !== undefined)
  const change = pairs.length >= 2
    ? pairedChange(pairs.map(([other]) => other.cpuMicrosPerRequest), pairs.map(([, run]) => run.cpuMicrosPerRequest), { alpha })
    : null
  if (change?.resolvable) {
    const { rounds, interval: [low, high], pWorse, pBetter } = change
    return { ratio: 1 + change.change, interval: [1 + low, 1 + high], pWorse, pBetter, rounds }
  }
  const cpu = (list) => median(list.map((run) => run.cpuMicrosPerRequest))
  return { ratio: cpu(ofRuns) / cpu(overRuns), interval: null, pWorse: null, pBetter: null, rounds: 0 }
}

/**
 * Where yours sits between fixed/ and fast/, from the rounds that measured
 * the three together: { share, interval, rounds, resolvable } as share.js's
 * shareBetween, and `fastOverFixed`, fast/ against fixed/ as
 * speedComparisons compares (whether this run tells the two apart at
 * all). Null when yours was not measured with them (a leaking copy).
 */
function speedBetween (runs, { alpha = SPEED_ALPHA } = {}) {
  const timed = (target) => new Map(runs.filter((run) => run.target === target && run.by === 'time').map((run) => [run.round, run.cpuMicrosPerRequest]))
  const [yours, fixed, fast] = [YOURS, SHARE_FROM, SHARE_TO].map(timed)
  const rounds = [...yours.keys()].filter((round) => fast.has(round) && fixed.has(round))
  if (rounds.length < 2) return null
  const cpu = (byRound) => rounds.map((round) => byRound.get(round))
  return {
    ...shareBetween({ fixed: cpu(fixed), fast: cpu(fast), yours: cpu(yours) }, { alpha }),
    fastOverFixed: compareTargets(runs, SHARE_TO, SHARE_FROM, { alpha })
  }
}

/**
 * A verdict in words from `comparisons` (speedComparisons: yours against
 * slow, fast and fixed) and `between` (speedBetween): CPU per request, not
 * req/s, because on a laptop whose cores the load generator shares it is
 * what the server alone decides. A server measured with fixed/ and fast/
 * is placed between them, by the share of fast/'s extra cost it still
 * pays (the same on a machine that hashes fast and on one that hashes
 * slowly), and only as far as the rounds show it:
 *   "faster than fixed/"        shown more than 10 % under fixed/;
 *   "cannot tell fast/ from fixed/ on this machine in this run": the
 *                               rounds do not show fast/ costlier than
 *                               fixed/, so there is no way between them
 *                               to place yours on;
 *   "about as fast as fixed/"   shown under a quarter of the way;
 *   "between fixed/ and fast/"  shown costlier than fixed/, and under
 *                               three quarters of the way;
 *   "about as fast as fast/"    estimated three quarters to 1.5, shown
 *                               past half way;
 *   "slower than fast/", "about as slow as slow/": estimated past 1.5,
 *                               shown costlier than fast/;
 *   "costs more than fixed/, not placed against fast/ in this run":
 *                               shown costlier than fixed/, nothing more;
 *   "not told apart from fixed/ in this run": not even that; a copy that
 *                               costs more is never told it matched
 *                               fixed/ (issue 47).
 * A leaking copy, measured apart by counts, is judged by its ratios.
 */
function speedVerdict (comparisons, between, { alpha = SPEED_ALPHA } = {}) {
  const { fixed, fast } = comparisons
  const category = placeYours(comparisons, between, { alpha })
  const againstFixed = `${round(fixed.ratio)} times fixed/'s CPU per request${intervalText(fixed)}`
  switch (category) {
    case 'not measured': return 'not measured: a server answered nothing'
    case 'faster': {
      const less = (ratio) => Math.round((1 - ratio) * 100)
      const interval = fixed.interval ? ` (${less(fixed.interval[1])} to ${less(fixed.interval[0])} %)` : ''
      return `faster than fixed/: ${less(fixed.ratio)} % less CPU per request${interval}`
    }
    case 'cannot tell': {
      const gap = between.fastOverFixed
      return `cannot tell fast/ from fixed/ on this machine in this run: fast/ ${round(gap.ratio)} times fixed/'s CPU per request${intervalText(gap)}, ` +
        `so yours (${againstFixed}) cannot be placed between them; run it again with less running beside it`
    }
    case 'costlier': return `costs more than fixed/, not placed against fast/ in this run: ${againstFixed}; run it again with less running beside it`
    case 'as fixed': return `about as fast as fixed/: ${againstFixed}`
    case 'between': return `between fixed/ and fast/: costs ${againstFixed}`
    case 'as fast': return `about as fast as fast/: costs ${againstFixed}`
    case 'as slow': return `about as slow as slow/: ${round(fast.ratio)} times fast/'s CPU per request`
    case 'slower': return `slower than fast/: ${round(fast.ratio)} times its CPU per request`
    default: return `not told apart from fixed/ in this run: ${againstFixed}; run it again with less running beside it`
  }
}

// The verdict's category, as speedVerdict words it.
function placeYours ({ fixed, fast, slow }, between, { alpha }) {
  if (![fixed, fast].every(measured)) return 'not measured'
  // Faster only where the rounds show yours beyond the band: on a busy
  // machine a copy of fixed/ can be estimated past it, shown merely cheaper.
  if (fixed.interval ? fixed.interval[1] < 1 / FIXED_BAND : fixed.ratio < 1 / FIXED_BAND) return 'faster'
  if (between === null || !between.resolvable) return placeByRatios({ fixed, fast, slow })
  if (!(between.fastOverFixed.pWorse < alpha)) return 'cannot tell'
  const { share, interval: [low, high] } = between
  if (high < FIXED_SHARE) return 'as fixed'
  // Costlier than fixed/ as the ratio the verdict prints shows it (its
  // interval then above 1), and placed only where the rounds show it.
  if (!(fixed.pWorse < alpha)) return 'not told apart'
  // "Between" only where the rounds show yours short of "about as fast as
  // fast/": shown merely cheaper than fast/, a copy of fast/'s own code
  // would be placed between now and then (a one-sided test's false alarm).
  if (high < FAST_SHARES[0]) return 'between'
  if (share >= FAST_SHARES[0] && share <= FAST_SHARES[1] && low > HALF_WAY) return 'as fast'
  if (share > FAST_SHARES[1] && low > 1) return slowerThanFast({ slow })
  return 'costlier'
}

// A server measured apart from fixed/ and fast/ (a leaking copy, by
// counts): by the ratios of the medians, with no test.
function placeByRatios ({ fixed, fast, slow }) {
  const within = (c, band) => Math.abs(Math.log(c.ratio)) <= Math.log(band)
  if (fixed.ratio < FIXED_BAND) return 'as fixed'
  if (within(fast, FAST_BAND)) return 'as fast'
  if (fast.ratio < 1) return 'between'
  return slowerThanFast({ slow })
}

function slowerThanFast ({ slow }) {
  return measured(slow) && slow.ratio >= AS_SLOW_AS_SLOW ? 'as slow' : 'slower'
}

const measured = (c) => c && Number.isFinite(c.ratio) && c.ratio > 0

// ` (low to high)` for a comparison with an interval, else nothing.
function intervalText ({ interval }) {
  return interval ? ` (${round(interval[0])} to ${round(interval[1])})` : ''
}

// A share of the way from fixed/ to fast/ for a sentence: two decimals,
// "-inf" or "inf" for an unbounded end.
function shareText (share) {
  if (!Number.isFinite(share)) return share > 0 ? 'inf' : '-inf'
  return share.toFixed(2)
}

module.exports = { compareSpeed, measureRounds, judgeSpeed, speedComparisons, speedBetween, speedVerdict, speedDecided, intervalText, shareText, SPEED_PROTOCOL, SPEED_ALPHA, FIXED_SHARE, FAST_SHARES, YOURS, BESIDE }
