'use strict'

// npm run cpu-hog's busy processes end when the hog does, however it ends:
// a parent killed with SIGKILL (no chance to stop them) included.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')
const { childrenOf } = require('../../tooling/target-process')
const { exitOf, alive, stateOf, waitFor } = require('../processes')

// CPU time the process has used so far, in clock ticks (/proc/<pid>/stat,
// fields 14 and 15), or 0 where it cannot be read.
function cpuTicks (pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}

t.test('a hog killed with SIGKILL leaves no busy process behind', { skip: process.platform === 'linux' ? false : 'reads /proc' }, async (t) => {
  const hog = spawn(process.execPath, [path.join(ROOT, 'tooling', 'cpu-hog.js'), '--processes', '1', '--seconds', '60'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let spinners = []
  t.teardown(() => { for (const pid of spinners) if (alive(pid)) process.kill(pid, 'SIGKILL') })
  t.ok(await waitFor(() => (spinners = childrenOf('/proc', hog.pid)).length === 1, 5000), 'one child started')
  // Busy, not still starting: a child that starts after its parent is gone
  // would end at once, and the check below would say nothing of the spinning.
  t.ok(await waitFor(() => cpuTicks(spinners[0]) >= 30, 10000), 'and spinning (0.3 s of CPU or more at 100 ticks a second)')
  hog.kill('SIGKILL')
  await exitOf(hog)
  // Ten seconds, where the old hog's child spun on for its whole minute: CI
  // once found the child still there after two, its state not recorded (an
  // exiting process under tap's coverage hooks writes its coverage first).
  // The message says the state, should it happen again.
  t.ok(await waitFor(() => !alive(spinners[0]), 10000), `its child ${spinners[0]} ended with it (state now: ${stateOf(spinners[0])})`)
})

// The bench warns when the machine is busy at the start. A hog started a
// second before a run left the 1-minute load average at 0.17 (AMD EPYC, 2
// cores), under the warning's threshold; the CPU sample the run takes first
// sees it.
t.test('the bench\'s CPU sample sees a hog started a moment before', { skip: process.platform === 'linux' ? false : 'reads /proc' }, async (t) => {
  const { sampleCpuBusy } = require('../../bench/measure/machine')
  const processes = require('node:os').cpus().length
  const hog = spawn(process.execPath, [path.join(ROOT, 'tooling', 'cpu-hog.js'), '--processes', String(processes), '--seconds', '30'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let spinners = []
  t.teardown(async () => {
    if (hog.exitCode === null) hog.kill('SIGINT')
    await exitOf(hog)
    for (const pid of spinners) if (alive(pid)) process.kill(pid, 'SIGKILL')
  })
  t.ok(await waitFor(() => (spinners = childrenOf('/proc', hog.pid)).length === processes, 5000), `${processes} children started`)
  t.ok(await waitFor(() => spinners.every((pid) => cpuTicks(pid) >= 10), 10000), 'and spinning')
  const busy = await sampleCpuBusy(500)
  t.ok(busy >= 0.5, `the machine's CPU ${Math.round(busy * 100)} % busy, a warning's worth (50 % or more)`)
})
