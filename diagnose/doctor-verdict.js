'use strict'

// What Doctor's findings mean on this machine: whether the server got its
// share of the CPU during the load, and a sentence for Doctor's verdict.
// Pure: clinic-analysis.js reads the findings from clinic's data.

// A machine is too busy to judge the server on when other processes took
// at least this share of all its CPU during the load, and less than a core
// was left idle on average (so the server could not just run on the idle
// one: on a 16-core laptop a browser can take a quarter of the CPU and
// leave the server a core of its own). A fifth of 2 cores is 0.4 of a core,
// while the server wants a whole one and autocannon about 0.4: there is no
// whole core left for the server, and Doctor's CPU check asks for 90 % of
// one. Beside `npm run cpu-hog` on 2 cores other processes read 51 to 78 %
// here, and beside no hog but other work (load average 8 to 17) 44 to 75 %:
// docs/diagnose.md, "Doctor on a busy machine", has the runs.
const BUSY_OTHERS_SHARE = 0.2
// Doctor's delay rule (@clinic/doctor/analysis/analyse-delay.js) flags a
// median delay of 10 ms or more, or a single one of 100 ms or more. Neither
// tells a busy machine from a blocked server: beside a hog (load average
// 17) fixed once waited 368 ms, while slow's median delay was 0.5 to 2 ms
// (its long turns leave few samples). What does: the share of the load's
// time the event loop spent late, the sum of the delays over the time
// sampled. Beside the hog slow was late 85 to 91 % of the time, fixed 14 to
// 32 % (on 0.26 to 0.57 of a core): docs/diagnose.md, "Doctor on a busy
// machine".
const BLOCKED_SHARE = 0.5

/**
 * How the machine's CPU went during the load, and whether the server got
 * its share: `cpu` as clinic-run.js's cpuDuring measured it, `samples`
 * Doctor's (readProcessStats). Returns { measured: false, why } where the
 * OS gave no CPU times; otherwise { measured: true, othersShare (what
 * processes other than the server and the load took, of all the machine's
 * CPU), idleCores, serverCores (the cores' worth the server got), busy,
 * delayBeyondMachine }.
 *
 * `blockedShare`: the share of the load's time the event loop was late
 * (the sum of Doctor's delays over the time they span); `delayBeyondMachine`
 * whether it is half or more: a server waiting for its share of the CPU is
 * late now and then, a server whose every turn is long, most of the time.
 */
function judgeMachine (cpu, samples) {
  if (!cpu || !cpu.allMs || !(cpu.cores > 0)) {
    return { measured: false, why: 'the OS gave no CPU times' }
  }
  const during = samples.filter((s) => s.timestamp > cpu.from && s.timestamp <= cpu.to)
  const wallMs = cpu.to - cpu.from
  if (during.length < 2 || !(wallMs > 0)) return { measured: false, why: 'Doctor took no samples during the load' }
  let serverMs = 0
  for (let i = 1; i < during.length; i++) serverMs += during[i].cpu * (during[i].timestamp - during[i - 1].timestamp)
  const sampledMs = during[during.length - 1].timestamp - during[0].timestamp
  const serverCores = sampledMs > 0 ? serverMs / sampledMs : 0
  const othersMs = Math.max(0, cpu.busyMs - serverCores * wallMs - cpu.loadMs)
  const othersShare = othersMs / cpu.allMs
  const idleCores = (cpu.allMs - cpu.busyMs) / wallMs
  const busy = othersShare >= BUSY_OTHERS_SHARE && idleCores < 1
  const blockedShare = sampledMs > 0 ? during.slice(1).reduce((sum, s) => sum + s.delay, 0) / sampledMs : 0
  const delayBeyondMachine = blockedShare >= BLOCKED_SHARE
  return { measured: true, othersShare, idleCores, serverCores, busy, blockedShare, delayBeyondMachine }
}

/**
 * A sentence for Doctor's verdict, naming what it flagged. Where the
 * event-loop delay is flagged, the sentence says so first and gives
 * Doctor's headline after it: on slow the delay is flagged on every
 * machine, while the headline moves with the machine (gc where garbage
 * collection blocks the loop 100 ms a second; cpu flagged too beside another
 * busy process, the CPU it did not get read as waiting). docs/diagnose.md
 * has the runs.
 *
 * `machine` (judgeMachine's) says whether the server got its share of the
 * CPU. Where it did not, what Doctor flagged is what a server short of CPU
 * looks like (its CPU below 90 % of a core reads as waiting on I/O, its
 * turns and GC pauses stretch into delay), so the verdict says the machine
 * was busy and judges nothing, unless the delay is beyond what the machine
 * explains (slow's is). A run with nothing flagged is "no issue" either way.
 */
function describeDoctorVerdict (variant, { issueCategory, issues }, machine = null) {
  if (issueCategory === 'none') return `${variant}: no issue detected`
  const flagged = Object.entries({ ...issues, ...prefixed('memory', issues.memory) })
    .filter(([, value]) => value === 'performance')
    .map(([name]) => name)
  const headline = `${issueCategory} issue detected`
  const busy = machine?.measured && machine.busy
  const others = `other processes used ${Math.round(machine?.othersShare * 100)} % of the CPU during the load`
  if (busy && !(flagged.includes('delay') && machine.delayBeyondMachine)) {
    return `${variant}: not judged: the machine was busy (${others}; ${variant} got ${machine.serverCores.toFixed(2)} of a core). ` +
      `Run it again on a quieter machine. Doctor's headline, read from a server short of CPU: ${headline}` +
      `${flagged.length > 0 ? ` (flagged: ${flagged.join(', ')})` : ''}`
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

module.exports = { judgeMachine, describeDoctorVerdict }
