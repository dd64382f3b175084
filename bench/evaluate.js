'use strict'

// What a measured run means: its ratios against the mode's goals, the checks
// every run must pass, and the comparison with a baseline, down to the
// sentences a failed run prints. A pure function of the figures, unit-tested
// in test/bench-evaluate.test.js; index.js only prints what it returns.

const { TARGETS, RATIOS, MODES } = require('./goals')
const { evaluateRatios, compareWithBaseline, summarizeTargets, checkRequirements } = require('./stats')

/**
 * Evaluate `measured` ({ protocol, runs }, from runComparison) for the mode
 * named `mode`, against `baseline` (an earlier --json result, or null) with
 * `tolerance` (0.25 = 25 %). Returns { summaries, ratios, failedChecks,
 * baseline, enforced, failures, unenforced }: `failures` are the sentences
 * that fail the run; `unenforced`, the missed goals and checks of a mode
 * that only reports them (`enforced` false).
 */
function evaluateRun ({ protocol, runs }, { mode, baseline = null, tolerance }) {
  const rules = MODES[mode]
  const conditionalTargets = protocol.targets.filter((target) => TARGETS[target].conditional)
  const summaries = summarizeTargets(runs, protocol.targets)
  const ratios = evaluateRatios(runs, RATIOS, rules.goals)
  const failedChecks = checkRequirements(runs, rules, conditionalTargets)
  const comparison = baseline ? compareWithBaseline(ratios, baseline.ratios, tolerance) : []

  const missedGoals = ratios.filter((r) => r.holds === false).map((r) =>
    `${r.name} is ${r.value.toPrecision(4)}, goal ${r.better === 'lower' ? '<=' : '>='} ${r.goal}`)
  const regressions = comparison.filter((b) => !b.holds).map((b) =>
    `${b.name} moved ${(b.change * 100).toFixed(1)} % from the baseline's ${b.baseline.toFixed(2)} (tolerance ${tolerance * 100} %)`)
  const missed = [...missedGoals, ...failedChecks]
  return {
    summaries,
    ratios,
    failedChecks,
    baseline: comparison,
    enforced: rules.enforce,
    failures: [...(rules.enforce ? missed : []), ...regressions],
    unenforced: rules.enforce ? [] : missed
  }
}

module.exports = { evaluateRun }
