'use strict'

// A benchmark target in a process of its own, started as a user starts it
// (tooling/spawn-server.js) on a free port of 127.0.0.1, and watched through
// /proc for its CPU time and peak memory.

const fs = require('node:fs')
const { execFileSync } = require('node:child_process')
const { spawnServer } = require('../tooling/spawn-server')

const CLOCK_TICKS_PER_SECOND = clockTicksPerSecond()

/**
 * Start `node [nodeArgs] <entry>` on 127.0.0.1 with a fixed SEED and `env`
 * added. Resolves to { url, pid, child, cpuMillis(), peakRssBytes(), stop() };
 * `child` talks to tooling/probe.js in the server (child.send, 'message').
 */
async function startTarget (entry, { seed = 'bench', env = {}, nodeArgs = [] } = {}) {
  const server = await spawnServer(entry, { env: { HOST: '127.0.0.1', SEED: seed, ...env }, nodeArgs })
  const pid = server.child.pid
  return {
    url: server.url,
    pid,
    child: server.child,
    cpuMillis: () => cpuMillis(pid),
    peakRssBytes: () => peakRssBytes(pid),
    stop: server.stop
  }
}

// User plus system CPU time of the process so far, from /proc/<pid>/stat
// (fields 14 and 15, in clock ticks). Null where /proc is not there.
function cpuMillis (pid) {
  const stat = readProc(`/proc/${pid}/stat`)
  if (stat === null) return null
  // The command name (field 2) may hold spaces; count fields after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return ticks * 1000 / CLOCK_TICKS_PER_SECOND
}

// The process's peak resident set size so far (VmHWM), in bytes.
function peakRssBytes (pid) {
  const status = readProc(`/proc/${pid}/status`)
  const match = status && /^VmHWM:\s+(\d+) kB/m.exec(status)
  return match ? Number(match[1]) * 1024 : null
}

function readProc (file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

function clockTicksPerSecond () {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100 // the Linux default
  }
}

module.exports = { startTarget }
