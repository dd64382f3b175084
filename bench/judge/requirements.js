'use strict'

// What a run must show besides its ratios, for a mode: the failures, as sentences.
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

module.exports = { checkRequirements }
