'use strict'

// Whether a diagnosis's load left the server its share of the CPU, and whether its
// delay is beyond what a busy machine explains: docs/diagnose.md, "Doctor on a busy machine".

const { median } = require('../bench/judge/stats')

const BUSY_OTHERS_SHARE = 0.2
const BLOCKED_SHARE = 0.5

// `cpu` from load.js's cpuDuring; `samples` the server's own: [{ timestamp, cpu (cores), delay (ms) }].
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
  // What the virtual machine's host took is others' too (in busyMs): said apart.
  const stolenShare = Math.min(othersShare, (cpu.stolenMs ?? 0) / cpu.allMs)
  const idleCores = (cpu.allMs - cpu.busyMs) / wallMs
  const busy = othersShare >= BUSY_OTHERS_SHARE && idleCores < 1
  const blockedShare = sampledMs > 0 ? during.slice(1).reduce((sum, s) => sum + s.delay, 0) / sampledMs : 0
  const delayBeyondMachine = blockedShare >= BLOCKED_SHARE
  const serverMedianCores = median(during.slice(1).map((s) => s.cpu))
  const loadCores = cpu.loadMs / wallMs
  return { measured: true, othersShare, stolenShare, idleCores, serverCores, serverMedianCores, loadCores, busy, blockedShare, delayBeyondMachine }
}

// The figures a verdict on a busy machine gives: what the others took, and what the server got.
function describeMachine (variant, machine) {
  const percent = (share) => Math.round(share * 100)
  const stolen = percent(machine.stolenShare ?? 0)
  const others = stolen === 0
    ? `other processes used ${percent(machine.othersShare)} % of the CPU during the load`
    : `other processes used ${percent(machine.othersShare - machine.stolenShare)} % of the CPU during the load, ` +
      `the virtual machine's host held back ${stolen} %`
  return { others, got: `${variant} got ${machine.serverCores.toFixed(2)} of a core` }
}

module.exports = { judgeMachine, describeMachine }
