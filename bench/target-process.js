'use strict'

// A benchmark target in a process of its own: started as a user starts it
// (`node <entry>` through util/launch.js) on a free port of 127.0.0.1, watched
// through /proc for its CPU time and peak memory, and always stopped.

const fs = require('node:fs')
const path = require('node:path')
const { spawn, execFileSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..')
const START_TIMEOUT_MS = 15000
const STOP_TIMEOUT_MS = 5000
const CLOCK_TICKS_PER_SECOND = clockTicksPerSecond()

/**
 * Start `node [nodeArgs] <entry>` with PORT=0 and `env` added. Resolves once
 * it printed its URL to { url, pid, child, cpuMillis(), peakRssBytes(), stop() }.
 * With `ipc`, the child has an IPC channel (child.on('message')).
 */
function startTarget (entry, { seed = 'bench', env = {}, nodeArgs = [], ipc = false } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SEED: seed, ...env },
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])]
  })
  let output = ''
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => { output += chunk })

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${entry} did not print its URL within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS)
    function fail (err) {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(err)
    }
    child.once('exit', (code) => fail(new Error(`${entry} exited with code ${code} before listening:\n${output}`)))
    child.stdout.on('data', function onData (chunk) {
      output += chunk
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (!match) return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      child.stdout.off('data', onData)
      child.stdout.resume()
      resolve({
        url: match[1],
        pid: child.pid,
        child,
        cpuMillis: () => cpuMillis(child.pid),
        peakRssBytes: () => peakRssBytes(child.pid),
        stop: () => stop(child)
      })
    })
  })
}

// SIGTERM (graceful), then SIGKILL if it lingers.
function stop (child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    child.once('exit', () => { clearTimeout(timer); resolve() })
    child.kill('SIGTERM')
  })
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
