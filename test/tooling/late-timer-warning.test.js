'use strict'

// `npm start` and Flame under load printed "TimeoutNegativeWarning: -1 is a
// negative number", from autocannon's retimer when its timer fires late
// (tooling/late-timer-warning.js). A command's process keeps that one out
// of sight, and still prints a negative delay of its own. (Node emits the
// warning once a process, so each case is a process of its own.)

const t = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

function runCommand (main) {
  const source = `
    const { runAsProcess } = require(${JSON.stringify(path.join(__dirname, '..', '..', 'tooling', 'command'))})
    // autocannon's own retimer, wherever npm put it.
    const retimer = require(require.resolve('retimer', { paths: [require('node:path').dirname(require.resolve('autocannon'))] }))
    runAsProcess({ name: 'timers', usage: '', main: () => new Promise((resolve) => { ${main} }) })
  `
  // --warnings: tap may pass --no-warnings to children, which would hide them all.
  const run = spawnSync(process.execPath, ['--warnings', '-e', source], { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8', timeout: 10000 })
  return { status: run.status, warnings: run.stderr.split('\n').filter((line) => line.includes('TimeoutNegativeWarning')).map((line) => line.replace(/^\(node:\d+\) /, '')), stderr: run.stderr }
}

// Node emits TimeoutNegativeWarning from 23 on; Node 22 sets the delay to
// 1 ms without a word, so there is nothing to keep out of sight or to show.
const probe = spawnSync(process.execPath, ['--warnings', '-e', 'setTimeout(() => {}, -5)'], { encoding: 'utf8', timeout: 10000 })
const skip = probe.stderr.includes('TimeoutNegativeWarning') ? false : `Node ${process.version} emits no TimeoutNegativeWarning`

t.test("retimer's timer fired late, as a busy loop under load makes it: nothing printed", { skip }, async (t) => {
  const run = runCommand(`
    const timer = retimer(() => resolve(0), 50)
    setTimeout(() => { timer.reschedule(50); const end = Date.now() + 120; while (Date.now() < end); }, 10)
  `)
  t.equal(run.status, 0, run.stderr)
  t.same(run.warnings, [])
})

t.test('a negative delay of the command\'s own, in a callback retimer runs: printed', { skip }, async (t) => {
  const run = runCommand('retimer(() => setTimeout(() => resolve(0), -5), 10)')
  t.equal(run.status, 0, run.stderr)
  t.same(run.warnings, ['TimeoutNegativeWarning: -5 is a negative number.'])
})
