'use strict'

// Doctor's verdict in a sentence, judged against how the machine's CPU went
// during the load (machine.js). Pure: clinic-analysis.js reads the
// findings from clinic's data.

const { describeMachine } = require('./machine')

// Doctor's CPU check (@clinic/doctor/analysis/analyse-cpu.js) splits the
// server's CPU samples into two modes with a hidden Markov model, takes the
// lower one for the application (the higher is V8's extra threads, at GC)
// and flags the run when 90 % of that mode sit under 0.9 of a core: a
// server waiting on I/O. Beside its load on 2 cores a busy server is taken
// off its core for a few milliseconds now and then, and once in a while
// the model makes those few samples a mode of their own, and flags fixed,
// whose median sample is nearly a whole core, on a small minority of
// samples taken off its core while the rest sat near a whole core. A
// server at 90 % of a core or more in its median sample spent at least
// half its time on the CPU, where an application mode is where it spends
// most: that flag misreads the samples. The same check misreads a server
// that waits on its load: beside autocannon on one core (`taskset -c 0`),
// or when the load on 2 cores runs in step with it, each of the two works
// while the other waits, and the server sits under 0.9 of a core with no
// I/O of its own to wait on. A server waiting on I/O leaves both idle
// (beside a 1 ms wait per request, the two together used well under a
// core); one waiting on its load does not: the server and the run's own
// processes (autocannon, clinic's) at 0.9 of a core together or more, the
// CPU check read the load's turns as I/O. docs/diagnose.md, "Doctor's CPU
// check on a busy server", says why.
const CPU_CHECK_CORES = 0.9

/**
 * A sentence for Doctor's verdict, naming what it flagged. Where the
 * event-loop delay is flagged, the sentence says so first and gives
 * Doctor's headline after it: on slow the delay is flagged on every
 * machine, while the headline moves with the machine (gc where garbage
 * collection blocks the loop 100 ms a second; cpu flagged too beside another
 * busy process, the CPU it did not get read as waiting). docs/diagnose.md,
 * "Doctor's verdict on slow".
 *
 * `machine` (machine.js's judgeMachine) says whether the server got its share of the
 * CPU. Where it did not, what Doctor flagged is what a server short of CPU
 * looks like (its CPU below 90 % of a core reads as waiting on I/O, its
 * turns and GC pauses stretch into delay), so the verdict says the machine
 * was busy and judges nothing, unless the delay is beyond what the machine
 * explains (slow's is). A run with nothing flagged is "no issue" either way.
 * Where Doctor flagged the CPU alone on a server whose median sample was at
 * 90 % of a core or more, or which with its load kept 90 % of a core busy,
 * the server was not waiting on I/O (see CPU_CHECK_CORES): no issue, and
 * the sentence says what Doctor said.
 */
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
  if (cpuAlone && machine.serverCores + machine.loadCores >= CPU_CHECK_CORES) {
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
