'use strict'

// The machine's CPU times (tooling/cpu-times.js): what a virtual machine's host
// held back, /proc/stat's steal, counted as busy.

const t = require('tap')
const os = require('node:os')
const { cpuTimes, cpuTimesOf, stolenMs } = require('../../tooling/cpu-times')

// /proc/stat's first lines on a 2-core virtual machine (proc(5)): user nice
// system idle iowait irq softirq steal guest guest_nice, in USER_HZ.
const PROC_STAT = `cpu  2166615 866 701594 7131938 14982 0 96938 74373 0 0
cpu0 1072316 438 340768 3594982 1721 0 46905 36862 0 0
cpu1 1094299 428 360826 3536956 13261 0 50033 37511 0 0
intr 1 2 3
`
// The same cores as os.cpus() gives them, in ms (libuv reads the per-core lines).
const CPUS = [
  { times: { user: 10723160, nice: 4380, sys: 3407680, idle: 35949820, irq: 0 } },
  { times: { user: 10942990, nice: 4280, sys: 3608260, idle: 35369560, irq: 0 } }
]

t.test("steal is read from /proc/stat's line for all cores, in ms", async (t) => {
  t.equal(stolenMs(PROC_STAT), 743730)
  t.equal(stolenMs('cpu  1 2 3 4 5 6 7\n'), 0, 'a kernel without the field: nothing held back')
  t.equal(stolenMs(''), 0, 'no /proc/stat (macOS, Windows)')
})

t.test('what the host held back counts in all, and not as idle', async (t) => {
  const osAll = 10723160 + 4380 + 3407680 + 35949820 + 10942990 + 4280 + 3608260 + 35369560
  t.same(cpuTimesOf(CPUS, PROC_STAT), { all: osAll + 743730, idle: 35949820 + 35369560, stolen: 743730 })
  t.same(cpuTimesOf(CPUS, ''), { all: osAll, idle: 35949820 + 35369560, stolen: 0 }, 'without /proc/stat: os.cpus() alone')
  const times = cpuTimes()
  t.ok(times.stolen >= 0 && times.all >= times.idle + times.stolen, `this machine: ${JSON.stringify(times)} (${os.cpus().length} cores)`)
})
