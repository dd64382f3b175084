'use strict'

// The machine's CPU time so far, all cores: { all, idle, stolen } in ms; two readings say how busy it was between.
//
// On a virtual machine the host now and then runs other guests on its cores: time this machine's processes
// wanted the CPU and did not get it, which Linux counts as "steal" in /proc/stat and os.cpus() leaves out. A
// reading without it calls such a machine idle, and Doctor's verdict on a server short of CPU is read as the
// server's. So `stolen` is counted in `all` and not as idle: the time others took. 0 where there is no /proc/stat.

const fs = require('node:fs')
const os = require('node:os')

// /proc/stat counts in USER_HZ, 100 a second on every Linux Node runs on (libuv reads os.cpus() from the same file).
const MS_PER_TICK = 10

function cpuTimes () {
  return cpuTimesOf(os.cpus(), readProcStat())
}

// `cpus` as os.cpus() gives them, `procStat` /proc/stat's text ('' where there is none).
function cpuTimesOf (cpus, procStat) {
  const times = cpus.reduce((sum, { times }) => {
    sum.all += times.user + times.nice + times.sys + times.idle + times.irq
    sum.idle += times.idle
    return sum
  }, { all: 0, idle: 0 })
  const stolen = stolenMs(procStat)
  return { all: times.all + stolen, idle: times.idle, stolen }
}

function readProcStat () {
  try {
    return fs.readFileSync('/proc/stat', 'utf8')
  } catch {
    return ''
  }
}

// The steal field of /proc/stat's first line (all cores): `cpu user nice system idle iowait irq softirq steal ...`.
function stolenMs (procStat) {
  const fields = /^cpu\s+(.*)$/m.exec(procStat)?.[1].trim().split(/\s+/) ?? []
  const steal = Number(fields[7])
  return Number.isFinite(steal) ? steal * MS_PER_TICK : 0
}

module.exports = { cpuTimes, cpuTimesOf, stolenMs }
