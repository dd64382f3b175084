'use strict'

// The load every diagnosis puts on a server, clinic's tools and Node's
// alike: autocannon, in a process of its own (load-process.js), for a count
// of requests or a number of seconds, and how the machine's CPU went
// meanwhile (for machine.js's busy-machine check).

const os = require('node:os')
const path = require('node:path')
const { fork } = require('node:child_process')
const { cpuTimes } = require('../tooling/cpu-times')
const { SEED_PATH } = require('../core/seed-contract')
const { STORY_REQUEST_HEADERS } = require('../tooling/story-headers')
const { isLeaking } = require('../tooling/targets')
const { parseCommandLine, numberOption, UsageError } = require('../tooling/command')

const LOAD_PROCESS = path.join(__dirname, 'load-process.js')
const DEFAULTS = { connections: 100, duration: 5 }
// A leaking target (the catalogue's `leaking`: slow) is loaded by a count of
// requests, as the benchmark loads it: slow adds a listener per request, so what Doctor and Flame see depends on how many
// requests it has served, and a load by seconds would show a fast laptop a
// different server from a slow one (Doctor's verdict moved from event-loop
// to gc on one machine as it sped up). docs/diagnose.md, "The load",
// says why.
const LEAKING_REQUESTS = 600
// Doctor gets autocannon's own default of 10 connections instead. libuv
// (since its PR #3696, in every Node this project supports) accepts one
// connection per event-loop turn, so a blocked server like slow takes one
// long turn per connection to accept them all: with 100, its handle count
// climbs step by step for seconds. Doctor's handles check is a sign test
// that flags 24 or more steps the same way inside its window, so it called
// that ramp an I/O issue (verdict "unknown": delay and handles) in about one
// run in 25 here, depending on how many turns fit in the window. With 10
// connections the ramp has at most 10 steps and cannot trip that test; the
// verdict then rests on the event-loop delay, which is slow's real problem.
const DOCTOR_CONNECTIONS = 10
const DELAY_TOOLS = ['doctor', 'event-loop']
// A load by a count of requests stops after this long (a laptop far slower
// than ours); a load by seconds, a few seconds after its duration.
const COUNTED_LOAD_TIME_LIMIT_SECONDS = 60
// autocannon's load on `variant`: its size (loadSize), the story's request
// fields, and how long it may take.
function loadFor (variant, { connections, duration, requests }) {
  const size = loadSize(variant, { duration, requests })
  return {
    path: SEED_PATH,
    connections,
    ...size,
    headers: STORY_REQUEST_HEADERS[variant] ?? {},
    timeLimitSeconds: size.amount ? COUNTED_LOAD_TIME_LIMIT_SECONDS : size.duration + 5
  }
}

// slow by its count of requests unless told otherwise; anything else for
// `duration` seconds (5 by default) unless given a count.
function loadSize (variant, { duration, requests }) {
  if (requests) return { amount: requests }
  if (duration) return { duration }
  if (isLeaking(variant)) return { amount: LEAKING_REQUESTS }
  return { duration: DEFAULTS.duration }
}

function describeOutcome ({ requests, non2xx, errors, timeouts, error }) {
  if (error) return error
  return `${requests} responses, ${non2xx} not 2xx, ${errors} errors, ${timeouts} timeouts`
}

// Doctor's load for the tools that ask what kind of problem a server has
// (doctor, event-loop); Flame's for the others.
function defaultConnections (tool) {
  return DELAY_TOOLS.includes(tool) ? DOCTOR_CONNECTIONS : DEFAULTS.connections
}

// The load, in a process of its own (load-process.js: why there). Resolves
// to its result (see there) with `cpu`, how the machine's CPU went
// meanwhile (cpuDuring); never rejects: a load that could not run is one
// that got no 2xx.
function runLoad (port, load) {
  return new Promise((resolve) => {
    const cpu = cpuDuring()
    const child = fork(LOAD_PROCESS, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    let result = null
    child.on('message', (message) => { if (message.type === 'result') result = message.result })
    child.once('error', () => {})
    child.once('close', (code, signal) => {
      result ??= { requests: 0, ok: 0, non2xx: 0, errors: 1, timeouts: 0, seconds: 0, stopped: false, cpuMs: 0, error: `the load's process ended (${signal ?? `exit code ${code}`})` }
      resolve({ ...result, cpu: cpu.end(result.cpuMs) })
    })
    child.send({ type: 'load', port, load })
  })
}

/**
 * How the machine's CPU was spent from now until `end()`: end() returns
 * { from, to } (Date.now(), the clock Doctor's samples carry), `cores`,
 * `allMs` and `busyMs` (CPU time of every core, and the part not idle, from
 * os.cpus(): /proc/stat on Linux, the kernel's counters on macOS and
 * Windows), and `loadMs`, the CPU the run's own processes used besides the
 * server: this one (clinic's collector) and the load's (`loadChildMs`).
 * `allMs` is null where the OS gives no CPU times (os.cpus() empty or all
 * zero): how busy the machine was is then unknown. The same reading as
 * bench/measure/machine.js's sampleCpuBusy (tooling/cpu-times.js), over the
 * load instead of half a second before it. The server's own CPU is Doctor's to measure (its
 * samples, in the server): clinic-analysis.js puts the two together.
 */
function cpuDuring () {
  const from = Date.now()
  const before = cpuTimes()
  const ownBefore = process.cpuUsage()
  return {
    end (loadChildMs = 0) {
      const after = cpuTimes()
      const own = process.cpuUsage(ownBefore)
      const allMs = after.all - before.all
      return {
        from,
        to: Date.now(),
        cores: os.cpus().length,
        allMs: allMs > 0 ? allMs : null,
        busyMs: allMs > 0 ? allMs - (after.idle - before.idle) : null,
        loadMs: (own.user + own.system) / 1000 + loadChildMs
      }
    }
  }
}

function describeLoad ({ connections, duration, amount }) {
  return `autocannon -c ${connections}, ${amount ? `${amount.toLocaleString('en-US')} requests` : `${duration} s`}`
}

/**
 * A diagnosis's command line: its positionals (the tool, the server, as
 * the command has them) and the options of its load, `--connections N` and
 * `--duration SECONDS` or `--requests N`, checked ({ connections,
 * duration, requests }: `tool`'s connections unless given; `tool` a
 * name, or a function of the positionals that names it). Throws a
 * UsageError for a bad value or both sizes.
 */
function parseLoadCommandLine (argv, tool) {
  const { values, positionals } = parseCommandLine(argv, {
    connections: { type: 'string' },
    duration: { type: 'string' },
    requests: { type: 'string' }
  }, { positionals: true })
  if (values.duration !== undefined && values.requests !== undefined) throw new UsageError('give --duration or --requests, not both')
  return {
    positionals,
    load: {
      connections: numberOption('connections', values.connections, defaultConnections(typeof tool === 'function' ? tool(positionals) : tool), { min: 1, integer: true }),
      duration: numberOption('duration', values.duration, undefined, { min: 1 }),
      requests: numberOption('requests', values.requests, undefined, { min: 1, integer: true })
    }
  }
}

module.exports = { parseLoadCommandLine, DEFAULTS, LEAKING_REQUESTS, DOCTOR_CONNECTIONS, loadFor, defaultConnections, runLoad, cpuDuring, describeLoad, describeOutcome }
