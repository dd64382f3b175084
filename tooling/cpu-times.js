'use strict'

// The machine's CPU time so far, all cores: { all, idle } in ms; two readings say how busy it was between.

const os = require('node:os')

function cpuTimes () {
  return os.cpus().reduce((sum, { times }) => {
    sum.all += times.user + times.nice + times.sys + times.idle + times.irq
    sum.idle += times.idle
    return sum
  }, { all: 0, idle: 0 })
}

module.exports = { cpuTimes }
