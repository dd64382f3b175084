'use strict'

// The machine's CPU time so far, all cores together: { all, idle } in ms,
// from os.cpus() (/proc/stat on Linux, the kernel's counters on macOS and
// Windows). Two readings apart say how busy the machine was between them:
// bench reads it over the half second before a run
// (bench/measure/machine.js), diagnose over a clinic run's load
// (diagnose/clinic-run.js). An OS that reports no CPU times gives zeros.

const os = require('node:os')

function cpuTimes () {
  return os.cpus().reduce((sum, { times }) => {
    sum.all += times.user + times.nice + times.sys + times.idle + times.irq
    sum.idle += times.idle
    return sum
  }, { all: 0, idle: 0 })
}

module.exports = { cpuTimes }
