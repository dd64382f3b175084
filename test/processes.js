'use strict'

// A child process a test started: when it exits, and its state meanwhile
// (from /proc, where there is one).

require('./untapped-children')
const fs = require('node:fs')

/**
 * Resolve when `child` exits: { code, signal }.
 */
function exitOf (child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

// The process's state letter from /proc/<pid>/stat (R running, S
// sleeping, Z exited but not yet reaped), or 'gone'.
function stateOf (pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
  } catch {
    return 'gone'
  }
}

// Still there and not a zombie (an exited process its new parent has not
// reaped yet burns nothing).
const alive = (pid) => !['gone', 'Z', 'X'].includes(stateOf(pid))

// Resolves to test()'s value once it is truthy or `ms` have passed.
async function waitFor (test, ms) {
  const deadline = Date.now() + ms
  while (!test() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  return test()
}

module.exports = { exitOf, stateOf, alive, waitFor }
