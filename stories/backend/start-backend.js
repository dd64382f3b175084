'use strict'

// Start content-server.js as a child process and resolve to its origin
// (http://127.0.0.1:PORT) once it listens. It stops when this process exits.

const path = require('node:path')
const { fork } = require('node:child_process')

const START_TIMEOUT_MS = 10000

function startBackend (env = process.env) {
  // No execArgv: a preloaded probe (tooling/probe.js) belongs to the story
  // server the tools started, not to its backend.
  const child = fork(path.join(__dirname, 'content-server.js'), [], { env: { ...env, PORT: '0' }, execArgv: [] })
  process.once('exit', () => child.kill())
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill(); reject(new Error(`the content backend did not listen within ${START_TIMEOUT_MS} ms`)) }, START_TIMEOUT_MS)
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the content backend exited (code ${code}) before listening`)) })
    child.on('message', (message) => {
      if (message?.type !== 'backend-listening') return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      // Unreferenced: the backend's channel must not keep the server alive.
      child.channel.unref()
      child.unref()
      resolve(`http://127.0.0.1:${message.port}`)
    })
  })
}

module.exports = { startBackend }
