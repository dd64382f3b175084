'use strict'

// The arithmetic of the comparison: medians, ratios of paired rounds, goals
// and baselines. Pure functions, unit-tested in test/bench-stats.test.js.

/**
 * The median of `values` (the mean of the middle two for an even count),
 * or null for none.
 */
function median (values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * The ratio `definition` describes, from `runs` ({ target, round, ...metrics }):
 * the median over rounds of of/over measured in the same round. Null when a
 * target was not run or a metric is missing.
 */
function pairedRatio (runs, { of, over, metric }) {
  const ratios = []
  for (const run of runs.filter((r) => r.target === of)) {
    const partner = runs.find((r) => r.target === over && r.round === run.round)
    if (partner && Number.isFinite(run[metric]) && Number.isFinite(partner[metric]) && partner[metric] > 0) {
      ratios.push(run[metric] / partner[metric])
    }
  }
  return { value: median(ratios), pairs: ratios }
}

/**
 * Each ratio of `definitions` with its goal from `goals` (if any) and
 * whether it holds: `higher` ratios must reach the goal, `lower` ones stay
 * at or under it. Ratios whose targets were not both run are left out.
 */
function evaluateRatios (runs, definitions, goals = {}) {
  return definitions
    .map((definition) => {
      const { value, pairs } = pairedRatio(runs, definition)
      const goal = goals[definition.name] ?? null
      let holds = null
      if (goal !== null && value !== null) holds = definition.better === 'lower' ? value <= goal : value >= goal
      return { name: definition.name, metric: definition.metric, better: definition.better, value, pairs, goal, holds }
    })
    .filter((ratio) => ratio.value !== null)
}

/**
 * Compare `ratios` with those of an earlier result: a ratio fails when it
 * moved the wrong way by more than `tolerance` (0.25 = 25 %). Ratios the
 * baseline lacks are skipped.
 */
function compareWithBaseline (ratios, baselineRatios, tolerance) {
  const compared = []
  for (const ratio of ratios) {
    const earlier = baselineRatios.find((r) => r.name === ratio.name)
    if (!earlier || !Number.isFinite(earlier.value) || earlier.value <= 0) continue
    const change = ratio.value / earlier.value - 1
    const holds = ratio.better === 'lower' ? change <= tolerance : change >= -tolerance
    compared.push({ name: ratio.name, value: ratio.value, baseline: earlier.value, change, holds })
  }
  return compared
}

/**
 * The medians over rounds of every numeric figure, per target, in the
 * order the targets were given.
 */
function summarizeTargets (runs, targets) {
  return targets
    .map((target) => {
      const own = runs.filter((run) => run.target === target)
      if (own.length === 0) return null
      const summary = { target, rounds: own.length }
      for (const key of Object.keys(own[0])) {
        if (typeof own[0][key] === 'number' && key !== 'round') summary[key] = median(own.map((run) => run[key]))
      }
      return summary
    })
    .filter(Boolean)
}

/**
 * What the run must show besides the ratios, for a mode: no errors or
 * timeouts where required, 503s from the targets that must shed load, only
 * 304s from conditional targets. Returns the failures as sentences.
 */
function checkRequirements (runs, { errorFree, timeoutFree, shedding = [] }, conditionalTargets) {
  const failures = []
  for (const run of runs) {
    const where = `${run.target} (round ${run.round})`
    if (errorFree.includes(run.target) && run.errors > 0) failures.push(`${where}: ${run.errors} errors, expected none`)
    if (timeoutFree.includes(run.target) && run.timeouts > 0) failures.push(`${where}: ${run.timeouts} timeouts, expected none`)
    if (shedding.includes(run.target) && !(run.status503 > 0)) failures.push(`${where}: no 503, expected load to be shed`)
    if (conditionalTargets.includes(run.target)) {
      const not304 = run.responses - run.status304
      if (run.status304 === 0 || not304 > 0) failures.push(`${where}: ${not304} of ${run.responses} responses were not 304`)
    }
  }
  return failures
}

module.exports = { median, pairedRatio, evaluateRatios, compareWithBaseline, summarizeTargets, checkRequirements }
