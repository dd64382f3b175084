'use strict'

// Whether the machine left the server its share of the CPU during a
// diagnosis's load, and whether the server's event-loop delay is beyond
// what a busy machine explains: the check every verdict that judges a
// server from inside it (Doctor's, event-loop.js's) rests on. Pure: the
// figures come from load.js's cpuDuring and the server's own samples.

const { median } = require('../bench/judge/stats')

// A machine is too busy to judge the server on when other processes took
// at least this share of all its CPU during the load, and less than a core
// was left idle on average (so the server could not just run on the idle
// one: on a 16-core laptop a browser can take a quarter of the CPU and
// leave the server a core of its own). A fifth of 2 cores is 0.4 of a core,
// while the server wants a whole one and autocannon about 0.4: there is no
// whole core left for the server, and Doctor's CPU check asks for 90 % of
// one. Beside `npm run cpu-hog` on 2 cores, and beside no hog but other
// work, other processes took more than twice this share: docs/diagnose.md,
// "Doctor on a busy machine", says how it reads.
const BUSY_OTHERS_SHARE = 0.2
// Doctor's delay rule (@clinic/doctor/analysis/analyse-delay.js) flags a
// median delay of 10 ms or more, or a single one of 100 ms or more. Neither
// tells a busy machine from a blocked server: beside a hog fixed once
// waited past the single-delay limit, while slow's median delay stayed
// under the median's (its long turns leave few samples). What does: the
// share of the load's time the event loop spent late, the sum of the
// delays over the time sampled. Beside the hog slow was late most of the
// time, fixed a third of it at most (on about half a core or less):
// docs/diagnose.md, "Doctor on a busy machine".
const BLOCKED_SHARE = 0.5

/**
 * How the machine's CPU went during the load, and whether the server got
 * its share: `cpu` as load.js's cpuDuring measured it, `samples` the
 * server's own, taken inside it ([{ timestamp (Date.now()), cpu (cores
 * over the sample's time), delay (ms the event loop was late in it) }]:
 * Doctor's every 10 ms, event-loop.js's every second). Returns { measured: false, why } where the
 * OS gave no CPU times; otherwise { measured: true, othersShare (what
 * processes other than the server and the load took, of all the machine's
 * CPU), idleCores, serverCores (the cores' worth the server got), busy,
 * delayBeyondMachine }.
 *
 * `serverMedianCores`: the server's median sample, in cores;
 * `loadCores`: the cores' worth the run's own processes got (cpu.loadMs
 * over the load's time: autocannon's, clinic's).
 *
 * `blockedShare`: the share of the load's time the event loop was late
 * (the sum of the samples' delays over the time they span); `delayBeyondMachine`
 * whether it is half or more: a server waiting for its share of the CPU is
 * late now and then, a server whose every turn is long, most of the time.
 */
function judgeMachine (cpu, samples) {
  if (!cpu || !cpu.allMs || !(cpu.cores > 0)) {
    return { measured: false, why: 'the OS gave no CPU times' }
  }
  const during = samples.filter((s) => s.timestamp > cpu.from && s.timestamp <= cpu.to)
  const wallMs = cpu.to - cpu.from
  if (during.length < 2 || !(wallMs > 0)) return { measured: false, why: 'the server was not sampled during the load' }
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
  const serverMedianCores = median(during.slice(1).map((s) => s.cpu))
  const loadCores = cpu.loadMs / wallMs
  return { measured: true, othersShare, idleCores, serverCores, serverMedianCores, loadCores, busy, blockedShare, delayBeyondMachine }
}

// The words every verdict uses for what the machine did: `others` what
// other processes took, `notJudged` the start of a verdict that judges
// nothing because the server did not get its share (machine.busy).
function describeMachine (variant, machine) {
  const others = `other processes used ${Math.round(machine.othersShare * 100)} % of the CPU during the load`
  return {
    others,
    notJudged: `${variant}: not judged: the machine was busy (${others}; ${variant} got ${machine.serverCores.toFixed(2)} of a core). Run it again on a quieter machine.`
  }
}

module.exports = { judgeMachine, describeMachine }
