'use strict'

// The last part of `npm run verify`: yours loaded beside fixed and fast in the same rounds, slow by request counts,
// and a verdict on where yours sits between fixed/ and fast/ (share.js). Loaded together, the machine's ups and
// downs fall on all three (docs/verify.md, "The speed verdict", says why, and why a share rather than a band).

const { TARGETS, targetsIn } = require('../bench/protocol/targets')
const { measureSideBySide } = require('../bench/measure/side-by-side')
const { median, pairedChange, summarizeTargets } = require('../bench/judge/stats')
const { shareBetween } = require('./share')
const { round } = require('../tooling/number-text')

// Many short rounds: a round's spread comes from its fresh processes more than its length. More while they do not
// place yours, up to maxRounds: exact p-values enumerate 2^rounds signs, too slow at the test's limit.
const SPEED_PROTOCOL = { connections: 50, warmup: 1, duration: 1.5, rounds: 8, moreRounds: 4, maxRounds: 12, warmupRequests: 200, requests: 100 }
// The false-alarm rate of each one-sided test, and so a 90 % interval.
const SPEED_ALPHA = 0.05
// Shares of the way from fixed/ (0) to fast/ (1) where the verdict's words change (placeYours).
const FIXED_SHARE = 0.25
const FAST_SHARES = [0.75, 1.5]
const HALF_WAY = 0.5
// Ratios: "faster than fixed/" under 1 / FIXED_BAND; a leaking copy, measured apart, as fixed/ under FIXED_BAND, as fast/ within FAST_BAND.
const FIXED_BAND = 1.1
const FAST_BAND = 1.25
const AS_SLOW_AS_SLOW = 0.5

const YOURS = 'yours'
const BESIDE = targetsIn('speed')
const [SHARE_FROM, SHARE_TO] = targetsIn('speedBetween')
// What yours is placed beside and between: the catalogue's targets `beside` (and `line`, their order in verify's
// figures), from `from` (0) to `to` (1), `slow` the one "about as slow as" names (or null), each as `labels` says it.
// The leak's are fixed/ to fast/, with slow/ beside them; another exercise names its story's (exerciseSides).
const LEAK_SIDES = {
  beside: BESIDE,
  line: targetsIn('speedLine'),
  from: SHARE_FROM,
  to: SHARE_TO,
  slow: 'slow',
  labels: { from: 'fixed/', to: 'fast/', slow: 'slow/' }
}

// An exercise's story: yours placed from its fixed server (0) to its slow one (1), "about as fast as" either.
function exerciseSides ({ fixed, slow }) {
  return { beside: [fixed, slow], line: [slow, fixed], from: fixed, to: slow, slow: null, labels: { from: fixed, to: slow, slow: null } }
}

// Yours beside slow, fast and fixed: by time in rounds until placed (speedDecided), then by counts once (slow,
// and yours when `leaking`): slow costs far more than the others, so one round places it.
// `yours` adds to your server's definition what its story's servers are run with (headers, env).
async function compareSpeed (entry, { name = YOURS, leaking = false, protocol = SPEED_PROTOCOL, onRun = () => {}, measureSides = measureSideBySide, sides = LEAK_SIDES, yours = {} } = {}) {
  const definitions = { ...Object.fromEntries(sides.beside.map((name) => [name, TARGETS[name]])), [YOURS]: { ...yours, entry, leaking } }
  const names = [YOURS, ...sides.beside]
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
    more: !leaking,
    measureRound: (group, roundNumber) => measure(group, roundNumber, 'time'),
    decided: () => speedDecided(runs, { sides })
  })
  if (counted.length > 0) await measure(counted, 1, 'count')
  return { protocol: { ...protocol, rounds, targets: names }, runs, ...judgeSpeed(runs, { name, sides }) }
}

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

function judgeSpeed (runs, { alpha = SPEED_ALPHA, name = YOURS, sides = LEAK_SIDES } = {}) {
  const summaries = summarizeTargets(runs, [YOURS, ...sides.beside])
  const comparisons = speedComparisons(runs, { alpha, sides })
  const between = speedBetween(runs, { alpha, sides })
  return { summaries, comparisons, between, verdict: speedVerdict(comparisons, between, { alpha, name, sides }) }
}

function speedDecided (runs, { alpha = SPEED_ALPHA, sides = LEAK_SIDES } = {}) {
  const category = placeYours(roles(speedComparisons(runs, { alpha, sides }), sides), speedBetween(runs, { alpha, sides }), { alpha })
  return !ABSTAINING.includes(category)
}

// Yours against each variant: rounds measured together judged as bench:compare judges a pair; measured apart,
// the ratio of medians, with no interval or p-values.
function speedComparisons (runs, { alpha = SPEED_ALPHA, sides = LEAK_SIDES } = {}) {
  return Object.fromEntries(sides.beside.map((variant) => [variant, compareTargets(runs, YOURS, variant, { alpha })]))
}

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

// The comparisons by the role placeYours reads them in: fixed (0), fast (1) and slow.
function roles (comparisons, sides) {
  return { fixed: comparisons[sides.from], fast: comparisons[sides.to], slow: sides.slow === null ? null : comparisons[sides.slow] }
}

function speedBetween (runs, { alpha = SPEED_ALPHA, sides = LEAK_SIDES } = {}) {
  const timed = (target) => new Map(runs.filter((run) => run.target === target && run.by === 'time').map((run) => [run.round, run.cpuMicrosPerRequest]))
  const [yours, fixed, fast] = [YOURS, sides.from, sides.to].map(timed)
  const rounds = [...yours.keys()].filter((round) => fast.has(round) && fixed.has(round))
  if (rounds.length < 2) return null
  const cpu = (byRound) => rounds.map((round) => byRound.get(round))
  return {
    ...shareBetween({ fixed: cpu(fixed), fast: cpu(fast), yours: cpu(yours) }, { alpha }),
    fastOverFixed: compareTargets(runs, sides.to, sides.from, { alpha })
  }
}

// On CPU per request, not req/s: on a laptop the load generator shares, it is what the server alone decides.
// Resolves to { sentence, again, figures }: the place in a sentence a participant reads aloud, whether it asks for
// another run, and the figures behind it, a line each. Each verdict and its order: docs/verify.md, "The speed verdict".
function speedVerdict (comparisons, between, { alpha = SPEED_ALPHA, name = YOURS, sides = LEAK_SIDES } = {}) {
  const placed = roles(comparisons, sides)
  const { fixed, fast } = placed
  const { labels } = sides
  const category = placeYours(placed, between, { alpha })
  const sentence = SPEED_SENTENCES[category](name, labels)
  const again = ABSTAINING.includes(category)
  const againstFixed = `${name} costs ${round(fixed.ratio)} times ${labels.from}'s CPU per request${intervalText(fixed)}.`
  switch (category) {
    case 'not measured': return { sentence, again, figures: [] }
    case 'faster': {
      const less = (ratio) => Math.round((1 - ratio) * 100)
      const interval = fixed.interval ? ` (${less(fixed.interval[1])} to ${less(fixed.interval[0])} %)` : ''
      return { sentence, again, figures: [`${name} uses ${less(fixed.ratio)} % less CPU per request than ${labels.from}${interval}.`] }
    }
    case 'cannot tell': {
      const gap = between.fastOverFixed
      return { sentence, again, figures: [againstFixed, `${labels.to} costs ${round(gap.ratio)} times ${labels.from}'s CPU per request${intervalText(gap)}.`] }
    }
    case 'as slow':
    case 'slower': return { sentence, again, figures: [`${name} costs ${round(fast.ratio)} times ${labels.to}'s CPU per request.`] }
    default: return { sentence, again, figures: [againstFixed] }
  }
}

// What verify says of yours, a sentence a place (placeYours). Where the rounds place nothing, it says so and asks
// for another run (ABSTAINING): on a machine busier than the difference is large, rather than guess. `labels` name
// the sides (LEAK_SIDES' by default).
const SPEED_SENTENCES = {
  'not measured': (name) => `${name} could not be measured: a server answered nothing.`,
  faster: (name, { from } = LEAK_SIDES.labels) => `${name} is faster than ${from}.`,
  'as fixed': (name, { from } = LEAK_SIDES.labels) => `${name} is about as fast as ${from}.`,
  between: (name, { from, to } = LEAK_SIDES.labels) => `${name} is between ${from} and ${to}.`,
  'as fast': (name, { to } = LEAK_SIDES.labels) => `${name} is about as fast as ${to}.`,
  'as slow': (name, { slow } = LEAK_SIDES.labels) => `${name} is about as slow as ${slow}.`,
  slower: (name, { to } = LEAK_SIDES.labels) => `${name} is slower than ${to}.`,
  'cannot tell': (name, { from, to } = LEAK_SIDES.labels) => `This run could not tell ${to} from ${from}, so it cannot place ${name} between them.`,
  costlier: (name, { from, to } = LEAK_SIDES.labels) => `${name} costs more than ${from}, but this run could not place it against ${to}.`,
  'not told apart': (name, { from } = LEAK_SIDES.labels) => `This run could not tell ${name} from ${from}.`
}
const ABSTAINING = ['cannot tell', 'costlier', 'not told apart']
const RUN_IT_AGAIN = 'Run verify again with less running beside it.'

function placeYours ({ fixed, fast, slow }, between, { alpha }) {
  if (![fixed, fast].every(measured)) return 'not measured'
  // Faster only where the rounds show it: on a busy machine a copy of fixed/ can be estimated past the band.
  if (fixed.interval ? fixed.interval[1] < 1 / FIXED_BAND : fixed.ratio < 1 / FIXED_BAND) return 'faster'
  if (between === null || !between.resolvable) return placeByRatios({ fixed, fast, slow })
  if (!(between.fastOverFixed.pWorse < alpha)) return 'cannot tell'
  const { share, interval: [low, high] } = between
  if (high < FIXED_SHARE) return 'as fixed'
  if (!(fixed.pWorse < alpha)) return 'not told apart'
  // "Between" only where shown short of fast/, not merely cheaper: else a copy of fast/ would land here now and then.
  if (high < FAST_SHARES[0]) return 'between'
  if (share >= FAST_SHARES[0] && share <= FAST_SHARES[1] && low > HALF_WAY) return 'as fast'
  if (share > FAST_SHARES[1] && low > 1) return slowerThanFast({ slow })
  return 'costlier'
}

function placeByRatios ({ fixed, fast, slow }) {
  const within = (c, band) => Math.abs(Math.log(c.ratio)) <= Math.log(band)
  if (fixed.ratio < FIXED_BAND) return 'as fixed'
  if (within(fast, FAST_BAND)) return 'as fast'
  if (fast.ratio < 1) return 'between'
  return slowerThanFast({ slow })
}

function slowerThanFast ({ slow }) {
  return slow && measured(slow) && slow.ratio >= AS_SLOW_AS_SLOW ? 'as slow' : 'slower'
}

const measured = (c) => c && Number.isFinite(c.ratio) && c.ratio > 0

function intervalText ({ interval }) {
  return interval ? ` (${round(interval[0])} to ${round(interval[1])})` : ''
}

function shareText (share) {
  if (!Number.isFinite(share)) return share > 0 ? 'inf' : '-inf'
  return share.toFixed(2)
}

module.exports = { compareSpeed, measureRounds, judgeSpeed, speedComparisons, speedBetween, speedVerdict, speedDecided, intervalText, shareText, SPEED_SENTENCES, RUN_IT_AGAIN, SPEED_PROTOCOL, SPEED_ALPHA, FIXED_SHARE, FAST_SHARES, YOURS, BESIDE, LEAK_SIDES, exerciseSides }
