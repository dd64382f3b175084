'use strict'

// Preloaded into the server by `npm run event-loop` (event-loop.js: `node
// -r diagnose/event-loop-probe.js -r tooling/probe.js <entry>`), so that any
// server is measured without a line of it changed. It measures what Doctor
// measures, with what Node ships (perf_hooks): the event-loop delay, from a
// 10 ms timer as Doctor's sampler has (monitorEventLoopDelay records the
// time between its turns; what passes 10 ms is the delay), the share of the
// time the loop was busy (performance.eventLoopUtilization) and the
// process's CPU (process.cpuUsage). And what Doctor does not: the CPU the
// process spent between one response and the next, counted by the
// responses it finished (node:http publishes each on the diagnostics
// channel 'http.server.response.finish'), which is what tells a leak (each
// response dearer than the last) from a server that is merely slow.
// Over the IPC channel spawn-server.js opens, beside tooling/probe.js's
// messages:
//   child -> parent  { type: 'event-loop-sample', sample } every second from
//                    the start, `sample` = { timestamp (Date.now()), seconds
//                    (the time it covers), cpu (cores), utilization (0-1),
//                    delay (ms late in all: what passed the timer's 10 ms,
//                    summed), p50, p99, max (ms each turn was late) };
//   parent -> child  { type: 'event-loop-reset' }: the load begins; answered
//                    { type: 'event-loop-reset' };
//   parent -> child  { type: 'event-loop-summary' }: the load is over;
//                    answered { type: 'event-loop-summary', summary,
//                    responses }: the same figures over the whole load since
//                    the reset, and `responses`, [[responses finished, CPU
//                    µs used], …] since the reset, one pair every
//                    RESPONSES_PER_MARK responses (the first [0, 0]).

const { monitorEventLoopDelay, performance } = require('node:perf_hooks')
const diagnosticsChannel = require('node:diagnostics_channel')
const cluster = require('node:cluster')

// Doctor's sampling interval: its delay is what passes it.
const TIMER_MS = 10
const SAMPLE_EVERY_MS = 1000
// A mark every 10 responses: 60 along slow's 600 requests whatever the
// machine's speed, and at fixed's tens of thousands a second one
// process.cpuUsage() call per 10 responses, a fraction of a percent of
// their cost.
const RESPONSES_PER_MARK = 10

if (process.send && !cluster.isWorker) {
  const second = meter()
  let load = meter()
  let responses = responseMarks()
  diagnosticsChannel.subscribe('http.server.response.finish', () => responses.count())
  const timer = setInterval(() => process.send({ type: 'event-loop-sample', sample: second.read() }), SAMPLE_EVERY_MS)
  timer.unref()
  process.on('message', (message) => {
    if (message?.type === 'event-loop-reset') {
      load.stop()
      load = meter()
      responses = responseMarks()
      process.send({ type: 'event-loop-reset' })
    } else if (message?.type === 'event-loop-summary') {
      process.send({ type: 'event-loop-summary', summary: load.read(), responses: responses.marks })
    }
  })
}

// The responses finished from now on, and the CPU used by each mark.
function responseMarks () {
  const start = process.cpuUsage()
  const marks = [[0, 0]]
  let finished = 0
  return {
    marks,
    count () {
      finished++
      if (finished % RESPONSES_PER_MARK !== 0) return
      const cpu = process.cpuUsage(start)
      marks.push([finished, cpu.user + cpu.system])
    }
  }
}

// The figures from now on; read() gives them since the last read.
function meter () {
  const histogram = monitorEventLoopDelay({ resolution: TIMER_MS })
  histogram.enable()
  let since = { at: performance.now(), cpu: process.cpuUsage(), loop: performance.eventLoopUtilization() }
  return {
    read () {
      const now = { at: performance.now(), cpu: process.cpuUsage(), loop: performance.eventLoopUtilization() }
      const ms = now.at - since.at
      const cpu = process.cpuUsage(since.cpu)
      const late = (nanoseconds) => Math.max(0, nanoseconds / 1e6 - TIMER_MS)
      const turns = histogram.count
      const sample = {
        timestamp: Date.now(),
        seconds: ms / 1000,
        cpu: (cpu.user + cpu.system) / 1000 / ms,
        utilization: performance.eventLoopUtilization(now.loop, since.loop).utilization,
        delay: turns > 0 ? turns * late(histogram.mean) : 0,
        p50: turns > 0 ? late(histogram.percentile(50)) : 0,
        p99: turns > 0 ? late(histogram.percentile(99)) : 0,
        max: turns > 0 ? late(histogram.max) : 0
      }
      histogram.reset()
      since = now
      return sample
    },
    stop () { histogram.disable() }
  }
}
