'use strict'

// Starting a server as a user does, `node <entry>`, in a child process with tooling/probe.js preloaded,
// which says over IPC where it listens: any server that listens on PORT works, not only ours.

const path = require('node:path')
const { spawn } = require('node:child_process')
const { ROOT } = require('./repo')
const { SEED_PATH } = require('../core/seed-contract')

const PROBE = path.join(__dirname, 'probe.js')
const START_TIMEOUT_MS = 15000
const STOP_TIMEOUT_MS = 5000
const EXIT_TIMEOUT_MS = 30000

// Start `[...wrapper] node [nodeArgs] -r probe.js <entry>` in `cwd` with PORT=0 and `env`. Resolves once it
// listens to { url, origin, child, output(), stop(), exit() }: stop() sends SIGTERM, exit() the probe's
// { type: 'exit' } (what --cpu-prof needs), each with SIGKILL if it lingers, resolving once it exited.
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

function untilExit (child, ask, timeoutMs = STOP_TIMEOUT_MS) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('exit', () => { clearTimeout(timer); resolve() })
    ask()
  })
}

// Writing a --cpu-prof profile can take long on a slow disk or under Wine, hence the longer wait.
function exit (child) {
  return untilExit(child, () => child.send({ type: 'exit' }, (err) => { if (err) child.kill('SIGKILL') }), EXIT_TIMEOUT_MS)
}

module.exports = { spawnServer }
