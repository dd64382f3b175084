'use strict'

// Doctor's verdict in a sentence, judged against how busy the machine was (machine.js).

const { describeMachine } = require('./machine')

// Doctor's CPU check reads a server under 0.9 of a core as waiting on I/O; one this busy in its
// median sample, or with its load, was not (docs/diagnose.md, "Doctor's CPU check on a busy server").
const CPU_CHECK_CORES = 0.9

// A sentence, then its figures on lines of their own. Not judged on a busy machine, unless the
// delay is beyond what that explains (docs/diagnose.md).
function describeDoctorVerdict (variant, { issueCategory, issues }, machine = null) {
  if (issueCategory === 'none') return `Doctor detects no issue in ${variant}.`
  const flagged = Object.entries({ ...issues, ...prefixed('memory', issues.memory) })
    .filter(([, value]) => value === 'performance')
    .map(([name]) => name)
  const headline = `${issueCategory} issue detected`
  const busy = machine?.measured && machine.busy
  const { others, got } = machine?.measured ? describeMachine(variant, machine) : {}
  if (busy && !(flagged.includes('delay') && machine.delayBeyondMachine)) {
    return [`Doctor did not judge ${variant}: the machine was busy. Run it again on a quieter machine.`,
      `  ${others}`, `  ${got}`,
      `  Doctor's headline, read from a server short of CPU: ${headline}`,
      ...(flagged.length > 0 ? [`  flagged: ${flagged.join(', ')}`] : [])].join('\n')
  }
  const cpuAlone = flagged.length === 1 && flagged[0] === 'cpu' && machine?.measured
  const cpuCheckWrong = `No issue in ${variant}: only Doctor's CPU check flags it, and that check misreads it.`
  if (cpuAlone && machine.serverMedianCores >= CPU_CHECK_CORES) {
    return [cpuCheckWrong, `  Doctor's headline: ${headline}`,
      `  ${variant} used ${machine.serverMedianCores.toFixed(2)} of a core in its median sample: not a server waiting on I/O`].join('\n')
  }
  // What the virtual machine's host held back of a core (stolenShare, each core's average) was the pair's to use too.
  if (cpuAlone && machine.serverCores + machine.loadCores + (machine.stolenShare ?? 0) >= CPU_CHECK_CORES) {
    return [cpuCheckWrong, `  Doctor's headline: ${headline}`,
      `  ${variant} used ${machine.serverCores.toFixed(2)} of a core, its load ${machine.loadCores.toFixed(2)}: ` +
      'a server waiting on its load, not on I/O'].join('\n')
  }
  const notes = []
  if (busy) notes.push(`  the machine was busy: ${others}`, '  the delay is beyond what that explains')
  if (machine && !machine.measured) notes.push(`  how busy the machine was is unknown: ${machine.why}`)
  if (!flagged.includes('delay')) {
    return [`Doctor detects an issue in ${variant}, not in its event-loop delay.`, `  Doctor's headline: ${headline}`,
      ...(flagged.length > 0 ? [`  flagged: ${flagged.join(', ')}`] : []), ...notes].join('\n')
  }
  const rest = flagged.filter((name) => name !== 'delay')
  return [`Doctor flags ${variant}'s event-loop delay. The CPU's speed can change this verdict.`, `  Doctor's headline: ${headline}`,
    ...(rest.length > 0 ? [`  also flagged: ${rest.join(', ')}`] : []), ...notes].join('\n')
}

function prefixed (prefix, object) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [`${prefix} ${key}`, value]))
}

module.exports = { describeDoctorVerdict }
