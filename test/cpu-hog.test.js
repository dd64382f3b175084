'use strict'

// npm run cpu-hog's busy processes end when the hog does, however it ends:
// a parent killed with SIGKILL (no chance to stop them) included.

const t = require('tap')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { ROOT } = require('../tooling/repo')
const { childrenOf } = require('../bench/target-process')
const { exitOf } = require('./helper')

const alive = (pid) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitFor (test, ms) {
  const deadline = Date.now() + ms
  while (!test() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  return test()
}

t.test('a hog killed with SIGKILL leaves no busy process behind', { skip: process.platform === 'linux' ? false : 'reads /proc' }, async (t) => {
  const hog = spawn(process.execPath, [path.join(ROOT, 'bench', 'cpu-hog.js'), '--processes', '1', '--seconds', '60'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let spinners = []
  t.teardown(() => { for (const pid of spinners) if (alive(pid)) process.kill(pid, 'SIGKILL') })
  t.ok(await waitFor(() => (spinners = childrenOf('/proc', hog.pid)).length === 1, 5000), 'one busy child started')
  hog.kill('SIGKILL')
  await exitOf(hog)
  t.ok(await waitFor(() => !alive(spinners[0]), 2000), `its child ${spinners[0]} ended with it`)
})
