'use strict'

// What a measured run means, as the sentences bench/index.js prints: a pure function of the figures.

const { signedPercent, round } = require('../../tooling/number-text')
const { RATIOS, REFERENCE, MODES, userRatios, isEnforced } = require('./goals')
const { evaluateRatios, compareWithBaseline, summarizeTargets } = require('./stats')
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

module.exports = { evaluateRun, SPREAD_WORTH_A_WORD, BASELINE_IS_A_REPORT }
