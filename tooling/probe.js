'use strict'

// Preloaded into every server the tools start (`node -r tooling/probe.js <entry>`): over IPC it sends
// { type: 'listening' } once the first TCP server listens; answers 'sample', 'usage', 'cpu-clock' and
// 'replace-content'; on 'exit' exits normally, as --cpu-prof needs (docs/layout.md, "The start-up handshake").

const cluster = require('node:cluster')
const diagnosticsChannel = require('node:diagnostics_channel')
const launchChannel = require('../core/launch-channel')

// A cluster's workers inherit the preload, but their IPC leads to the primary: only the tool's child answers.
if (process.send && !cluster.isWorker) {
  let launched = null
  let contentSource = null
  launchChannel.subscribe(({ server, source }) => {
    launched = server
    contentSource = source
  })

  let announced = false
  diagnosticsChannel.subscribe('tracing:net.server.listen:asyncEnd', ({ server }) => {
    const address = server.address()
    if (announced || address === null || typeof address === 'string') return // a pipe, not TCP
    announced = true
    process.send({ type: 'listening', address: address.address, port: address.port })
  })

  process.on('message', (message) => {
    if (message?.type === 'usage') {
      const { user, system } = process.cpuUsage()
      process.send({ type: 'usage', cpuMicros: user + system, maxRssBytes: process.resourceUsage().maxRSS * 1024 })
    } else if (message?.type === 'sample') {
      if (global.gc) global.gc()
      const { rss, heapUsed } = process.memoryUsage()
      process.send({ type: 'sample', rss, heapUsed, afterListeners: launched ? launched.listenerCount('after') : null })
    } else if (message?.type === 'cpu-clock') {
      process.send({ type: 'cpu-clock', stepMicros: cpuClockStep() })
    } else if (message?.type === 'replace-content') {
      if (contentSource) contentSource.replaceContent(message.seed)
      process.send({ type: 'replace-content', replaced: contentSource !== null })
    } else if (message?.type === 'exit') {
      process.exit()
    }
  })
  // The channel keeps no stopped server alive; once the tool is gone, stop gracefully rather than serve on.
  process.channel.unref()
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
}

let cpuStepMicros = null
function cpuClockStep () {
  if (cpuStepMicros !== null) return cpuStepMicros
  const read = () => { const { user, system } = process.cpuUsage(); return user + system }
  const steps = []
  const deadline = Date.now() + 250
  let last = read()
  while (steps.length < 3 && Date.now() < deadline) {
    const now = read()
    if (now !== last) steps.push(now - last)
    last = now
  }
  cpuStepMicros = steps.length > 0 ? Math.min(...steps) : null
  return cpuStepMicros
}
