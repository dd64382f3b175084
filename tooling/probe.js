'use strict'

// Preloaded into every server the tools start (`node -r tooling/probe.js
// <entry>`, see spawn-server.js), and talking to the parent over the IPC
// channel spawn-server.js opens. This is the start-up handshake, and it
// works for any Node server, ours or a user's:
//   child -> parent  { type: 'listening', address, port }  once the first
//                    TCP server in the process listens (Node's
//                    tracing:net.server.listen channel), nothing printed
//                    or parsed;
//   parent -> child  { type: 'sample' }, answered with { type: 'sample',
//                    rss, heapUsed, afterListeners }: memory after a full
//                    GC when --expose-gc is on (so heapUsed is what is
//                    really retained), and the 'after' listeners of the
//                    server launch() started (null for other servers);
//   parent -> child  { type: 'usage' }, answered with { type: 'usage',
//                    cpuMicros, maxRssBytes }: the process's user plus
//                    system CPU time so far and its peak resident set, from
//                    Node itself (process.cpuUsage, process.resourceUsage),
//                    so the same on Linux, macOS and Windows;
//   parent -> child  { type: 'cpu-clock' }, answered with { type:
//                    'cpu-clock', stepMicros }: the smallest step that CPU
//                    time moves by, about 1 µs on Linux and macOS, 15,625 on
//                    Windows, where it moves in the scheduler's 15.6 ms ticks
//                    (how `npm run verify` knows how long a window of CPU
//                    time must be to be read);
//   parent -> child  { type: 'replace-content', seed }, answered with
//                    { type: 'replace-content', replaced }: for a server
//                    launch() started, its content source now serves the
//                    content made from `seed` (replaced true; false for
//                    other servers). How `npm run verify` changes the bytes
//                    of the body to see whether the ETag follows them;
//   parent -> child  { type: 'exit' }, not answered: the process calls
//                    process.exit(), a normal exit on every system. Node
//                    writes a --cpu-prof profile only then (not on a
//                    signal, and Windows has no SIGTERM to send), which is
//                    how `npm run profile` gets its profile.

const cluster = require('node:cluster')
const diagnosticsChannel = require('node:diagnostics_channel')
const launchChannel = require('../core/launch-channel')

// A cluster's workers inherit the preload, and their IPC channel leads to
// the primary, not to the tool: only the process the tool started answers
// (the primary listens too, on the port it shares out).
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
  // The channel alone must not keep a server alive that has stopped.
  process.channel.unref()
  // The tool that started this server is gone (killed, crashed, or Ctrl-C
  // reached it and not this process): stop as SIGTERM stops a server,
  // gracefully, rather than serve on for nobody.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
}

// The smallest of three steps process.cpuUsage() is seen to move by, found
// by spinning until it has moved three times: tens of milliseconds of CPU
// on a coarse clock, nothing to speak of on a fine one. null when it did not
// move within 250 ms.
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
