'use strict'

// Starting a server as a user does, `node <entry>`, from another process:
// the benchmark, the soak, the curl checks, trace-leak and the tests all go
// through here, and through util/launch.js inside the started process.

const path = require('node:path')
const { spawn } = require('node:child_process')

const ROOT = path.join(__dirname, '..')
const START_TIMEOUT_MS = 15000
const STOP_TIMEOUT_MS = 5000

/**
 * Start `node [nodeArgs] <entry>` (a variant's folder or any file that calls
 * launch(), relative to the repo root) with PORT=0 and `env` added. Resolves
 * once it printed its URL to { url, child, output(), stop() }: output() is
 * everything it printed so far, stop() sends SIGTERM (SIGKILL if it lingers)
 * and resolves when it exited. With `ipc`, the child has an IPC channel.
 */
function spawnServer (entry, { env = {}, nodeArgs = [], ipc = false } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, path.resolve(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
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
    child.once('exit', onEarlyExit)
    function onEarlyExit (code) {
      fail(new Error(`${entry} exited with code ${code} before listening:\n${output}`))
    }
    let listening = false
    child.stdout.on('data', (chunk) => {
      output += chunk
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (!match || listening) return
      listening = true
      clearTimeout(timer)
      child.off('exit', onEarlyExit)
      resolve({ url: match[1], child, output: () => output, stop: () => stop(child) })
    })
  })
}

function stop (child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    child.once('exit', () => { clearTimeout(timer); resolve() })
    child.kill('SIGTERM')
  })
}

module.exports = { spawnServer }
