'use strict'

// What a measured run means, as the sentences bench/index.js prints: a pure function of the figures.

const { signedPercent, round } = require('../../tooling/number-text')
const { RATIOS, REFERENCE, MODES, userRatios, isEnforced } = require('./goals')
const { evaluateRatios, compareWithBaseline, summarizeTargets } = require('./stats')
const { targetsIn } = require('../protocol/targets')
const { checkRequirements } = require('./requirements')
const { WATCHED } = require('../protocol/metrics')

// Rounds of one target further apart than this (largest over smallest) are
// worth a word: a ratio built on them is less certain than its pairs suggest.
const SPREAD_WORTH_A_WORD = 0.25

// Why a stored CPU run is not a gate: docs/ci-gate.md, "A stored CPU run: a report, not a gate".
const BASELINE_IS_A_REPORT = 'a report, not a gate: CPU time against a stored run moves with the machine ' +
  '(4 false alarms in 10 runs of the same code, measured); to gate, use npm run bench:compare, which measures ' +
  'the base beside the change, or --meter instructions --baseline FILE, which counts instructions'

// `failures` fail the run; `unenforced` are the misses of a mode that only reports them.
function evaluateRun ({ protocol, runs, targets }, { mode, baseline = null, alpha = 0.01 }) {
  const rules = MODES[mode]
  const enforced = isEnforced(rules)
  const conditionalTargets = protocol.targets.filter((target) => targets[target].conditional)
  const definitions = [...RATIOS, ...protocol.targets.filter((t) => targets[t].user).flatMap(userRatios)]
  const summaries = summarizeTargets(runs, protocol.targets)
  const ratios = evaluateRatios(runs, definitions, rules.goals)
  const failedChecks = checkRequirements(runs, rules, conditionalTargets)
  const comparison = baseline ? compareWithBaseline(ratios, baseline.ratios, { alpha, reference: REFERENCE }) : []

  const missedGoals = ratios.filter((r) => r.holds === false).map((r) =>
    `${r.name} is ${r.value.toPrecision(4)}, goal ${r.better === 'lower' ? '<=' : '>='} ${r.goal}`)
  const worse = comparison.filter((b) => b.holds === false).map((b) =>
    `${b.name} went from the baseline's ${b.baseline.toFixed(3)} to ${b.value.toFixed(3)} (${signedPercent(b.change)}), ` +
    `p = ${b.pValue.toPrecision(2)} over ${b.rounds} rounds against ${b.baselineRounds}: worse than the baseline`)
  const untestable = comparison.filter((b) => b.holds === null).map((b) => `${b.name} cannot be compared: ${b.note}`)
  const missed = [...missedGoals, ...failedChecks]
  return {
    summaries,
    ratios,
    failedChecks,
    baseline: comparison,
    baselineReport: baseline ? { note: BASELINE_IS_A_REPORT, findings: [...worse, ...untestable] } : null,
    enforced,
    failures: enforced ? missed : [],
    unenforced: enforced ? [] : missed,
    warnings: disagreements(summaries, runs)
  }
}

function disagreements (summaries, runs) {
  const warnings = []
  for (const { target, spread } of summaries) {
    for (const { key: metric, label } of WATCHED) {
      if (!(spread[metric] > SPREAD_WORTH_A_WORD)) continue
      const values = runs.filter((r) => r.target === target).map((r) => r[metric]).filter(Number.isFinite)
      warnings.push(`${target}: its rounds disagree on ${label}, from ${round(Math.min(...values))} to ` +
        `${round(Math.max(...values))} (spread ${Math.round(spread[metric] * 100)} %)`)
    }
  }
  return warnings
}

// A round falls as it runs when the last third of its seconds (warm-up, then measured) serves less
// than half what the first third did, and a target falls when every round of it does: slow's leak
// does that on any machine, since its load is a count of requests; a warm-up, or a busy spell of the
// machine in one round, does not.
const FALLS_BELOW = 0.5

// What the verdict says first, from a run as --json keeps it (nothing here is added to it): how the
// case study's variants in the run fare as they run, the goals that fall short, and the failures
// that are neither (a meter's gate).
function judgeRun ({ protocol, runs, ratios, failedChecks = [], failures = [] }) {
  const variants = targetsIn('caseStudy').filter((target) => protocol.targets.includes(target))
  const paces = variants.map((target) => ({ target, falls: fallsInEveryRound(runs.filter((r) => r.target === target)) }))
  const goals = ratios.filter((r) => r.goal !== null)
  const short = goals.filter((r) => r.holds === false)
  const missedGoal = (failure) => short.some((r) => failure.startsWith(`${r.name} is `))
  const otherFailures = failures.filter((f) => !failedChecks.includes(f) && !missedGoal(f))
  return { paces: paces.filter((p) => p.falls !== null), goals, short, failedChecks, otherFailures }
}

function fallsInEveryRound (rounds) {
  const each = rounds.map(fallsAsItRuns)
  return each.length === 0 || each.includes(null) ? null : each.every(Boolean)
}

function fallsAsItRuns (run) {
  const seconds = [...(run.warmupPerSecond || []), ...run.perSecond]
  if (seconds.length < 2) return null
  const third = Math.max(1, Math.floor(seconds.length / 3))
  const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length
  return mean(seconds.slice(-third)) < FALLS_BELOW * mean(seconds.slice(0, third))
}

module.exports = { evaluateRun, judgeRun, SPREAD_WORTH_A_WORD, BASELINE_IS_A_REPORT }
