'use strict'

// Starting a server as a user does, `node <entry>`, in a child process: the
// benchmark, the soak, the curl checks, trace-leak and the tests all go
// through here. The child runs with tooling/probe.js preloaded, which tells
// this side over IPC where the server listens (the handshake is described
// there); any server that listens on PORT works, not only ours.

const path = require('node:path')
const { spawn } = require('node:child_process')
const { ROOT } = require('./repo')
const { SEED_PATH } = require('../core/seed-contract')

const PROBE = path.join(__dirname, 'probe.js')
const START_TIMEOUT_MS = 15000
const STOP_TIMEOUT_MS = 5000
const EXIT_TIMEOUT_MS = 30000

/**
 * Start `node [nodeArgs] -r tooling/probe.js <entry>` (a variant's folder or
 * any server file, relative to `cwd` or absolute) in `cwd` (the repo root
 * unless given), run by the Node binary at `node` (this process's unless
 * given: another Node line's, say), with PORT=0 and
 * `env` added, its stdout a pipe or `stdout` (a file descriptor); under
 * `wrapper` ([command, ...args], valgrind say) when given, which then has
 * `startTimeoutMs` to get it listening. Resolves
 * once it listens to { url, origin, child, output(), stop(), exit() }: `url` is its
 * /seed/v1, output() everything it printed so far (stderr only when stdout
 * is not a pipe),
 * stop() sends SIGTERM (SIGKILL if it lingers) and resolves when it exited,
 * exit() asks it to exit normally (the probe's { type: 'exit' }, SIGKILL if
 * it lingers) and resolves when it exited: what --cpu-prof needs to write
 * its profile.
 */
function spawnServer (entry, { env = {}, nodeArgs = [], stdout = 'pipe', cwd = ROOT, wrapper = [], startTimeoutMs = START_TIMEOUT_MS, node = process.execPath } = {}) {
  const command = [...wrapper, node, ...nodeArgs, '-r', PROBE, path.resolve(cwd, entry)]
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', stdout, 'pipe', 'ipc']
  })
  let output = ''
  for (const stream of [child.stdout, child.stderr].filter(Boolean)) {
    stream.setEncoding('utf8')
    stream.on('data', (chunk) => { output += chunk })
  }

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${entry} did not listen within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs)
    function fail (err) {
      clearTimeout(timer)
      child.off('message', onMessage)
      child.kill('SIGKILL')
      reject(err)
    }
    function onEarlyExit (code, signal) {
      fail(new Error(`${entry} exited (${signal || `code ${code}`}) before listening:\n${output}`))
    }
    function onMessage (message) {
      if (message?.type !== 'listening') return
      clearTimeout(timer)
      child.off('exit', onEarlyExit)
      child.off('message', onMessage)
      const host = message.address.includes(':') ? `[${message.address}]` : message.address
      const origin = `http://${host}:${message.port}`
      resolve({ url: origin + SEED_PATH, origin, child, output: () => output, stop: () => stop(child), exit: () => exit(child) })
    }
    child.once('error', (err) => fail(new Error(`${command[0]} did not start: ${err.message}`)))
    child.once('exit', onEarlyExit)
    child.on('message', onMessage)
  })
}

function stop (child) {
  return untilExit(child, () => child.kill('SIGTERM'))
}

// Ask `child` to end (`ask`), SIGKILL if it lingers `timeoutMs`; resolves
// when it exited.
function untilExit (child, ask, timeoutMs = STOP_TIMEOUT_MS) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('exit', () => { clearTimeout(timer); resolve() })
    ask()
  })
}

// A server asked to exit writes its --cpu-prof profile first: JSON of a few
// megabytes, a fraction of a second here, longer on a slow disk or under
// Wine, hence the longer wait before SIGKILL. A channel already closed
// (send fails) leaves SIGKILL at once.
function exit (child) {
  return untilExit(child, () => child.send({ type: 'exit' }, (err) => { if (err) child.kill('SIGKILL') }), EXIT_TIMEOUT_MS)
}

module.exports = { spawnServer }
