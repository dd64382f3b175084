'use strict'

// Preloaded into a server by `npm run event-loop` to measure, its code unchanged, what Doctor
// measures and the CPU per response finished. Messages: 'event-loop-sample' each second out;
// 'event-loop-reset' and 'event-loop-summary' answered (docs/node-tools.md, "How it measures").

const { monitorEventLoopDelay, performance } = require('node:perf_hooks')
const diagnosticsChannel = require('node:diagnostics_channel')
const cluster = require('node:cluster')

// Doctor's sampling interval: its delay is what passes it.
const TIMER_MS = 10
const SAMPLE_EVERY_MS = 1000
// Often enough for a trend along slow's short load, rarely enough that process.cpuUsage() costs little.
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
