'use strict'

// The last part of `npm run verify`: the participant's server beside slow,
// fast and fixed in one run of the benchmark (bench/measure/rounds.js: fresh processes,
// the same autocannon load, rounds interleaved), and a verdict in words.

const { runComparison } = require('../bench/measure/rounds')
const { TARGETS, targetsIn } = require('../bench/protocol/targets')
const { ratiosAgainst } = require('../bench/judge/goals')
const { summarizeTargets, evaluateRatios } = require('../bench/judge/stats')

// Shorter than `npm start`: a verdict, not a table to publish. slow (and a
// server whose cost grows, as measured by level 1) by request counts.
const SPEED_PROTOCOL = { connections: 100, warmup: 1, duration: 3, warmupRequests: 200, requests: 100, rounds: 2 }
const YOURS = 'yours'
// What yours runs beside (the catalogue's `speed` set: slow, fast and fixed).
const BESIDE = targetsIn('speed')

/**
 * Measure the server at `entry` against slow, fast and fixed. `leaking`
 * says to measure it by request counts, as slow is. Resolves to
 * { protocol, summaries, ratios, verdict }.
 */
async function compareSpeed (entry, { leaking = false, protocol = SPEED_PROTOCOL, onRun = () => {} } = {}) {
  const targets = { ...Object.fromEntries(BESIDE.map((name) => [name, TARGETS[name]])), [YOURS]: { entry, user: true, leaking } }
  const full = { ...protocol, targets: [YOURS, ...BESIDE] }
  const { runs } = await runComparison(full, { targets, onRun })
  const summaries = summarizeTargets(runs, full.targets)
  // A user's ratios (against the reference, fast and fixed: those that
  // ran), then against the rest of what ran beside yours (slow).
  const overs = targetsIn('user')
  const ratios = evaluateRatios(runs, ratiosAgainst(YOURS, [...overs, ...BESIDE.filter((name) => !overs.includes(name))]))
  const cpu = Object.fromEntries(summaries.map((s) => [s.target, s.cpuMicrosPerRequest]))
  return { protocol: full, summaries, ratios, verdict: speedVerdict(cpu, { noise: runNoise(summaries) }) }
}

/**
 * How far this run's measurements of one server stray: the largest spread
 * of CPU per request over the rounds of yours, fast and fixed (0.3 = one
 * round 30 % above another). Two measurements of the same code differ by
 * about this much in this run, so no verdict calls a difference inside it
 * a difference. (slow is left out: measured by counts, a `leaking` target
 * spreads for its own reasons.) 0 when there is one round.
 */
function runNoise (summaries) {
  return Math.max(0, ...summaries
    .filter((s) => !TARGETS[s.target]?.leaking)
    .map((s) => s.spread?.cpuMicrosPerRequest ?? 0))
}

/**
 * A verdict in words from the CPU each server spends per response
 * ({ yours, slow, fast, fixed }, µs): CPU per request, not req/s, because
 * on a laptop whose cores the load generator shares it is what the server
 * alone decides. `noise` is the run's own spread (runNoise): yours is "about
 * as fast as" a variant when their difference is inside the variant's band
 * (10 % for fixed, -20 %/+25 % for fast) widened by that spread; where it is
 * inside two bands, the nearer variant names it.
 */
function speedVerdict ({ yours, slow, fast, fixed }, { noise = 0 } = {}) {
  if (![yours, slow, fast, fixed].every((v) => v > 0)) return 'not measured: a server answered nothing'
  const times = (n) => n >= 10 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1)
  const widen = 1 + noise
  const near = [
    { variant: fixed, band: 1.1 * widen, says: noise > 0.1 ? `about as fast as fixed/ (within this run's spread, ${Math.round(noise * 100)} %)` : 'within 10 % of fixed/' },
    { variant: fast, band: 1.25 * widen, says: 'about as fast as fast/' }
  ]
    .map((candidate) => ({ ...candidate, distance: Math.abs(Math.log(yours / candidate.variant)) }))
    .filter(({ distance, band }) => distance <= Math.log(band))
    .sort((a, b) => a.distance - b.distance)
  if (near.length > 0) return near[0].says
  if (yours < fixed) return `faster than fixed/: ${Math.round((1 - yours / fixed) * 100)} % less CPU per request`
  if (yours < fast) return `between fixed/ and fast/: ${times(yours / fixed)} times fixed/'s CPU per request`
  if (yours >= slow * 0.5) return `about as slow as slow/: ${times(yours / fast)} times fast/'s CPU per request`
  return `slower than fast/: ${times(yours / fast)} times its CPU per request`
}

module.exports = { compareSpeed, speedVerdict, runNoise, SPEED_PROTOCOL, YOURS, BESIDE }
