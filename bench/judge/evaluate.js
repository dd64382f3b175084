'use strict'

// What a measured run means: its ratios against the mode's goals, the checks
// every run must pass, the gate against a baseline, and rounds that disagree,
// down to the sentences the run prints. A pure function of the figures,
// unit-tested in test/bench-evaluate.test.js; bench/index.js only prints it.

const { signedPercent, round } = require('../../tooling/number-text')
const { RATIOS, REFERENCE, MODES, userRatios } = require('./goals')
const { evaluateRatios, compareWithBaseline, summarizeTargets } = require('./stats')
const { checkRequirements } = require('./requirements')

// Rounds of one target further apart than this (largest over smallest) are
// worth a word: a ratio built on them is less certain than its pairs suggest.
const SPREAD_WORTH_A_WORD = 0.25

/**
 * Evaluate `measured` ({ protocol, runs, targets }, from runComparison) for
 * the mode named `mode`, against `baseline` (an earlier --json result, or
 * null) at significance `alpha`. Returns { summaries, ratios, failedChecks,
 * baseline, enforced, failures, unenforced, warnings }: `failures` are the
 * sentences that fail the run; `unenforced`, the missed goals and checks of
 * a mode that only reports them (`enforced` false); `warnings`, rounds that
 * disagree widely.
 */
function evaluateRun ({ protocol, runs, targets }, { mode, baseline = null, alpha = 0.01 }) {
  const rules = MODES[mode]
  const conditionalTargets = protocol.targets.filter((target) => targets[target].conditional)
  const definitions = [...RATIOS, ...protocol.targets.filter((t) => targets[t].user).flatMap(userRatios)]
  const summaries = summarizeTargets(runs, protocol.targets)
  const ratios = evaluateRatios(runs, definitions, rules.goals)
  const failedChecks = checkRequirements(runs, rules, conditionalTargets)
  const comparison = baseline ? compareWithBaseline(ratios, baseline.ratios, { alpha, reference: REFERENCE }) : []

  const missedGoals = ratios.filter((r) => r.holds === false).map((r) =>
    `${r.name} is ${r.value.toPrecision(4)}, goal ${r.better === 'lower' ? '<=' : '>='} ${r.goal}`)
  const regressions = comparison.filter((b) => b.holds === false).map((b) =>
    `${b.name} went from the baseline's ${b.baseline.toFixed(3)} to ${b.value.toFixed(3)} (${signedPercent(b.change)}), ` +
    `p = ${b.pValue.toPrecision(2)} over ${b.rounds} rounds against ${b.baselineRounds}: a regression`)
  const untestable = comparison.filter((b) => b.holds === null).map((b) => `${b.name} cannot be gated: ${b.note}`)
  const missed = [...missedGoals, ...failedChecks]
  return {
    summaries,
    ratios,
    failedChecks,
    baseline: comparison,
    enforced: rules.enforce,
    failures: [...(rules.enforce ? missed : []), ...regressions, ...untestable],
    unenforced: rules.enforce ? [] : missed,
    warnings: disagreements(summaries, runs)
  }
}

function disagreements (summaries, runs) {
  const warnings = []
  for (const { target, spread } of summaries) {
    for (const [metric, label] of [['requestsPerSecond', 'req/s'], ['cpuMicrosPerRequest', 'CPU µs/req']]) {
      if (!(spread[metric] > SPREAD_WORTH_A_WORD)) continue
      const values = runs.filter((r) => r.target === target).map((r) => r[metric]).filter(Number.isFinite)
      warnings.push(`${target}: its rounds disagree on ${label}, from ${round(Math.min(...values))} to ` +
        `${round(Math.max(...values))} (spread ${Math.round(spread[metric] * 100)} %)`)
    }
  }
  return warnings
}

module.exports = { evaluateRun, SPREAD_WORTH_A_WORD }
