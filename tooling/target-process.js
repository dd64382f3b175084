'use strict'

// A server under test in its own process (spawn-server.js). CPU time and peak memory come from the server,
// through tooling/probe.js, on every platform; where /proc exists they are also read there, as a cross-check.

const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { spawnServer } = require('./spawn-server')
const { readTextOrNull } = require('./text-file')
const { SYNCHRONOUS_FILE_FLAGS, NO_SYNCHRONOUS_FILE } = require('./synchronous-file')

const CLOCK_TICKS_PER_SECOND = clockTicksPerSecond()
const USAGE_TIMEOUT_MS = 10000
const STDOUT_FLAGS = { file: 'w', 'synchronous-file': SYNCHRONOUS_FILE_FLAGS }

// Start `entry` on 127.0.0.1 with a fixed SEED, `stdout` ({ kind, file }) a 'file' or an O_DSYNC
// 'synchronous-file'. Resolves to { url, origin, pid, child, usage(), sample(), cpuClockStepMicros(),
// replaceContent(seed), stop() }; usage() gives { cpuMillis, peakRssBytes, proc }, `proc` from /proc or null.
async function startTarget (entry, { seed = 'bench', env = {}, nodeArgs = [], procRoot = '/proc', stdout = null, processTree = false, cwd, wrapper, startTimeoutMs } = {}) {
  if (stdout?.kind === 'synchronous-file' && SYNCHRONOUS_FILE_FLAGS === null) throw new Error(NO_SYNCHRONOUS_FILE)
  const stdoutFd = stdout === null ? 'pipe' : fs.openSync(stdout.file, STDOUT_FLAGS[stdout.kind])
  // No drain window on stop: nothing is measured after it.
  const server = await spawnServer(entry, { env: { HOST: '127.0.0.1', SEED: seed, SHUTDOWN_DRAIN_MS: '0', ...env }, nodeArgs, stdout: stdoutFd, cwd, wrapper, startTimeoutMs })
    .finally(() => { if (stdoutFd !== 'pipe') fs.closeSync(stdoutFd) })
  const { child } = server
  return {
    url: server.url,
    origin: server.origin,
    pid: child.pid,
    child,
    usage: async () => {
      const { cpuMicros, maxRssBytes } = await ask(child, 'usage')
      if (processTree) {
        // The probe sees one process; a cluster or a server with a backend is several, all in /proc.
        const tree = readProcTree(procRoot, child.pid)
        return { cpuMillis: tree?.cpuMillis ?? null, peakRssBytes: tree?.peakRssBytes ?? null, proc: tree }
      }
      const proc = readProc(procRoot, child.pid)
      return { cpuMillis: cpuMicros / 1000, peakRssBytes: maxRssBytes, proc }
    },
    sample: ({ timeoutMs } = {}) => ask(child, 'sample', {}, timeoutMs),
    cpuClockStepMicros: async () => (await ask(child, 'cpu-clock')).stepMicros,
    replaceContent: async (seed) => (await ask(child, 'replace-content', { seed })).replaced,
    stop: server.stop
  }
}

function ask (child, type, fields = {}, timeoutMs = USAGE_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`the server did not answer '${type}' within ${timeoutMs} ms`)), timeoutMs)
    function onMessage (message) {
      if (message?.type === type) done(null, message)
    }
    function done (err, message) {
      clearTimeout(timer)
      child.off('message', onMessage)
      if (err) reject(err)
      else resolve(message)
    }
    child.on('message', onMessage)
    child.send({ type, ...fields })
  })
}

// CPU time (stat fields 14 and 15, in clock ticks) and peak RSS (VmHWM); null without /proc.
function readProc (procRoot, pid) {
  const stat = readTextOrNull(path.join(procRoot, String(pid), 'stat'))
  const status = readTextOrNull(path.join(procRoot, String(pid), 'status'))
  if (stat === null || status === null) return null
  // The command name (field 2) may hold spaces; count fields after its ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  const hwm = /^VmHWM:\s+(\d+) kB/m.exec(status)
  return { cpuMillis: ticks * 1000 / CLOCK_TICKS_PER_SECOND, peakRssBytes: hwm ? Number(hwm[1]) * 1024 : null }
}

// The same for `pid` and the processes below it, summed; the summed peaks are an upper bound of the tree's.
function readProcTree (procRoot, pid) {
  const own = readProc(procRoot, pid)
  if (own === null) return null
  const tree = { ...own, processes: 1 }
  for (const child of childrenOf(procRoot, pid)) {
    const below = readProcTree(procRoot, child)
    if (below === null) continue // it exited meanwhile
    tree.cpuMillis += below.cpuMillis
    tree.peakRssBytes += below.peakRssBytes
    tree.processes += below.processes
  }
  return tree
}

function childrenOf (procRoot, pid) {
  let threads
  try {
    threads = fs.readdirSync(path.join(procRoot, String(pid), 'task'))
  } catch {
    return []
  }
  return threads.flatMap((tid) => (readTextOrNull(path.join(procRoot, String(pid), 'task', tid, 'children')) ?? '')
    .split(' ').filter(Boolean).map(Number))
}

function clockTicksPerSecond () {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100 // the Linux default
  }
}

module.exports = { startTarget, childrenOf }
