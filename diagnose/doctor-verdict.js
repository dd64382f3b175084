'use strict'

// Doctor's verdict in a sentence, judged against how busy the machine was (machine.js).

const { describeMachine } = require('./machine')

// Doctor's CPU check reads a server under 0.9 of a core as waiting on I/O; one this busy in its
// median sample, or with its load, was not (docs/diagnose.md, "Doctor's CPU check on a busy server").
const CPU_CHECK_CORES = 0.9

// Not judged on a busy machine, unless the delay is beyond what that explains (docs/diagnose.md).
function describeDoctorVerdict (variant, { issueCategory, issues }, machine = null) {
  if (issueCategory === 'none') return `${variant}: no issue detected`
  const flagged = Object.entries({ ...issues, ...prefixed('memory', issues.memory) })
    .filter(([, value]) => value === 'performance')
    .map(([name]) => name)
  const headline = `${issueCategory} issue detected`
  const busy = machine?.measured && machine.busy
  const { others, notJudged } = machine?.measured ? describeMachine(variant, machine) : {}
  if (busy && !(flagged.includes('delay') && machine.delayBeyondMachine)) {
    return `${notJudged} Doctor's headline, read from a server short of CPU: ${headline}` +
      `${flagged.length > 0 ? ` (flagged: ${flagged.join(', ')})` : ''}`
  }
  const cpuAlone = flagged.length === 1 && flagged[0] === 'cpu' && machine?.measured
  if (cpuAlone && machine.serverMedianCores >= CPU_CHECK_CORES) {
    return `${variant}: no issue detected (Doctor's headline, ${headline}, rests on its CPU check alone, and ${variant} ` +
      `used ${machine.serverMedianCores.toFixed(2)} of a core in its median sample: not a server waiting on I/O)`
  }
  // What the virtual machine's host held back of a core (stolenShare, each core's average) was the pair's to use too.
  if (cpuAlone && machine.serverCores + machine.loadCores + (machine.stolenShare ?? 0) >= CPU_CHECK_CORES) {
    return `${variant}: no issue detected (Doctor's headline, ${headline}, rests on its CPU check alone, and ${variant} ` +
      `used ${machine.serverCores.toFixed(2)} of a core, its load ${machine.loadCores.toFixed(2)}: a server waiting on its load, not on I/O)`
  }
  const notes = []
  if (busy) notes.push(`the machine was busy (${others}), and the delay is beyond what that explains`)
  if (machine && !machine.measured) notes.push(`how busy the machine was is unknown: ${machine.why}`)
  if (!flagged.includes('delay')) {
    const parts = [...(flagged.length > 0 ? [`flagged: ${flagged.join(', ')}`] : []), ...notes]
    return `${variant}: ${headline}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`
  }
  const rest = flagged.filter((name) => name !== 'delay')
  const parts = [`Doctor's headline: ${headline}`, ...(rest.length > 0 ? [`also flagged: ${rest.join(', ')}`] : []), ...notes]
  return `${variant}: the event-loop delay is flagged (${parts.join('; ')})`
}

function prefixed (prefix, object) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [`${prefix} ${key}`, value]))
}

module.exports = { describeDoctorVerdict }
