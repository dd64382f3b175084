'use strict'

// The load every diagnosis puts on a server (autocannon, in load-process.js),
// and how the machine's CPU went meanwhile, for machine.js. docs/diagnose.md, "The load".

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
// A leak's cost grows per request: a timed load would show each machine a different server.
const LEAKING_REQUESTS = 600
// Not 100: libuv accepts one connection per turn, and a blocked server's ramp to 100 trips Doctor's handles check.
const DOCTOR_CONNECTIONS = 10
const DELAY_TOOLS = ['doctor', 'event-loop']
const COUNTED_LOAD_TIME_LIMIT_SECONDS = 60
// autocannon's load on `variant`: its size, the story's headers and a time limit.
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

function defaultConnections (tool) {
  return DELAY_TOOLS.includes(tool) ? DOCTOR_CONNECTIONS : DEFAULTS.connections
}

// Resolves to load-process.js's result with `cpu` (cpuDuring); never rejects: a load that could not run got no 2xx.
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

// The machine's CPU from now until end(): { from, to } on Doctor's clock, cores,
// allMs, busyMs and stolenMs, what a virtual machine's host took (null where the
// OS gives no CPU times; tooling/cpu-times.js), and loadMs, this process's CPU
// and the load's. The server's own is measured inside it.
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
        stolenMs: allMs > 0 ? after.stolen - before.stolen : null,
        loadMs: (own.user + own.system) / 1000 + loadChildMs
      }
    }
  }
}

function describeLoad ({ connections, duration, amount }) {
  return `autocannon -c ${connections}, ${amount ? `${amount.toLocaleString('en-US')} requests` : `${duration} s`}`
}

// `tool`, for the default connections: a name, or a function of the positionals that names it.
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
