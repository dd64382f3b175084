'use strict'

// `npm run event-loop -- <server>`: what kind of problem a server has, as
// Doctor asks it, with what Node ships. The server runs as a user runs it,
// with event-loop-probe.js preloaded (its code untouched), under the load
// Doctor gets (load.js); every second the terminal shows its event-loop
// delay and how busy its loop and its CPU were. Then the verdict, whether
// it leaks: the CPU a response costs late in the load against early
// (cost-growth.js), a ratio of the server to itself, which a faster or
// slower machine does not move:
//   event-loop: slow: a leak: each response costs more CPU than the ones before (…)
//   event-loop: fixed: no leak: a response costs no more late in the load than early (…)
// And under it Doctor's own rule on the delay (a median of 10 ms or more,
// or one delay of 100 ms or more), against how busy the machine was
// (machine.js), in Doctor's words. Its line is in milliseconds, which a
// fast enough CPU keeps slow under, so its line says it is a reading of
// the machine: under a leak's verdict, "no delay flagged" must not read as
// "no problem".
//   event-loop: Doctor's rule, which moves with the machine's speed: slow: the event-loop delay is flagged (…)
//   event-loop: Doctor's rule, which moves with the machine's speed: slow: no delay flagged (…)
//   event-loop: Doctor's rule, which moves with the machine's speed: fixed: not judged: the machine was busy (…)
// docs/node-tools.md, "npm run event-loop", says how to read both.
// Exit codes: 0 done (a "not judged" too: the run worked), 1 the load got
// no 2xx response or the server failed, 2 bad arguments.

const path = require('node:path')
const { runAsProcess, UsageError } = require('../tooling/command')
const { resolveServerPath } = require('../tooling/server-path')
const { spawnServer } = require('../tooling/spawn-server')
const { parseLoadCommandLine, loadFor, defaultConnections, runLoad, describeLoad, describeOutcome, DOCTOR_CONNECTIONS, LEAKING_REQUESTS, DEFAULTS } = require('./load')
const { LEAKING } = require('../tooling/targets')
const { judgeMachine, describeMachine } = require('./machine')
const { judgeCostGrowth, describeCostGrowth, LEAK_GROWTH } = require('./cost-growth')

const PROBE = path.join(__dirname, 'event-loop-probe.js')
// Doctor's delay rule (@clinic/doctor/analysis/analyse-delay.js), on the
// same 10 ms timer: "If there is a 10ms event loop delay, we can't handle
// connections for 10ms […] the GC stops the world for a long time […] just
// once can be an issue".
const FLAGGED_MEDIAN_MS = 10
const FLAGGED_MAX_MS = 100
// What the rule's line starts with, after `event-loop: `. figures/catalogue.js
// reads the longest delay from the line it starts, from a copy (no tool
// imports another's command); test/diagnose/event-loop.test.js holds the two alike.
const DOCTOR_RULE = "Doctor's rule, which moves with the machine's speed"
// The server's answer to a message, when its loop is free again; slow's
// longest turns take a few hundred milliseconds.
const ANSWER_TIMEOUT_MS = 30000

const USAGE = `Usage: npm run event-loop -- <server> [--connections N] [--duration SECONDS | --requests N]

Runs \`node <server>\` with Node's event-loop delay monitor preloaded
(perf_hooks), loads it as Doctor's run does (autocannon -c ${DOCTOR_CONNECTIONS} for
${DEFAULTS.duration} s, ${LEAKING.join(', ')} for ${LEAKING_REQUESTS} requests) and shows its delay every second.
Then the verdict, whether it leaks: the CPU a response costs late in the
load against early, on its trend (a leak at ${LEAK_GROWTH} times or more), which the machine's
speed does not move; and the delay by Doctor's rule (a median of ${FLAGGED_MEDIAN_MS} ms or
more, or one of ${FLAGGED_MAX_MS} ms), which it does: a fast machine keeps slow under it.
  server:   a variant (slow, fast, fixed), a story's server,
            or the path of any server folder or file, your workshop copy say
`

/**
 * Measure `server`'s event loop under load. Resolves to { code, error?,
 * name (the server as printed), load, samples (each second's, during the
 * load), summary (the load's whole), machine (judgeMachine's), growth
 * (cost-growth.js's judgeCostGrowth), leak, flagged (by Doctor's rule),
 * verdict (the leak's line), delayVerdict (Doctor's rule's) }; code 2 when
 * nothing is at that path, 1 when the server did not start or the load got
 * no 2xx.
 */
async function measureEventLoop (server, { connections = defaultConnections('event-loop'), duration, requests, log = console.log } = {}) {
  let entry, variant
  try {
    ({ entry, name: variant } = resolveServerPath(server))
  } catch (err) {
    return { code: 2, error: err.message }
  }
  const load = loadFor(variant, { connections, duration, requests })
  let started
  try {
    started = await spawnServer(entry, { nodeArgs: ['-r', PROBE] })
  } catch (err) {
    return { code: 1, error: err.message }
  }
  const samples = []
  started.child.on('message', (message) => {
    if (message?.type === 'event-loop-sample') samples.push(message.sample)
  })
  try {
    log(`${variant} listening on ${started.url}`)
    // Before the load: the probe spins the CPU to find the clock's step.
    const { stepMicros: clockStepMicros } = await ask(started.child, 'cpu-clock')
    await ask(started.child, 'event-loop-reset')
    log(`Loading ${started.url}: ${describeLoad(load)}`)
    const result = await runLoad(new URL(started.url).port, load)
    const { summary, responses } = await ask(started.child, 'event-loop-summary')
    log(`Load done: ${result.ok.toLocaleString('en-US')} 2xx of ${describeOutcome(result)} in ${result.seconds} s`)
    if (result.ok === 0) {
      return { code: 1, load: result, error: `the load got no 2xx response from ${variant} (${describeOutcome(result)}): there is no event loop under load to judge` }
    }
    const during = samples.filter((sample) => sample.timestamp > result.cpu.from && sample.timestamp <= result.cpu.to)
    const machine = judgeMachine(result.cpu, during)
    const flagged = summary.p50 >= FLAGGED_MEDIAN_MS || summary.max >= FLAGGED_MAX_MS
    const growth = judgeCostGrowth(responses, { clockStepMicros })
    return {
      code: 0,
      name: variant,
      load: result,
      samples: during,
      summary,
      machine,
      growth,
      leak: growth.measured && growth.leak,
      flagged,
      // A delay read from a server short of CPU is no sign it is slow.
      verdict: describeLeakVerdict(variant, growth, flagged && !(machine.measured && machine.busy && !machine.delayBeyondMachine)),
      delayVerdict: describeEventLoopVerdict(variant, { summary, flagged }, machine)
    }
  } catch (err) {
    return { code: 1, error: `${variant}: ${err.message}` }
  } finally {
    await started.stop()
  }
}

// Send `type` to the server's probe; resolves to its answer.
function ask (child, type) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.off('message', onMessage); reject(new Error(`no answer to ${type} within ${ANSWER_TIMEOUT_MS / 1000} s`)) }, ANSWER_TIMEOUT_MS)
    function onMessage (message) {
      if (message?.type !== type) return
      clearTimeout(timer)
      child.off('message', onMessage)
      resolve(message)
    }
    child.on('message', onMessage)
    child.send({ type })
  })
}

/**
 * Whether `variant` leaks, from `growth` (judgeCostGrowth's); `flagged`,
 * whether Doctor's rule flags its delay, tells a flat server that is slow
 * from one that is not.
 */
function describeLeakVerdict (variant, growth, flagged) {
  const reading = describeCostGrowth(growth)
  if (!growth.measured) return `${variant}: leak not judged: ${reading}`
  if (growth.leak) return `${variant}: a leak: each response costs more CPU than the ones before (${reading})`
  const flat = `a response costs no more late in the load than early (${reading})`
  return flagged
    ? `${variant}: no leak, but slow: ${flat}, and Doctor's rule flags its delay`
    : `${variant}: no leak: ${flat}`
}

/**
 * The delay's verdict by Doctor's rule, in Doctor's words. `summary` the load's figures (ms),
 * `flagged` whether Doctor's rule flags them, `machine` judgeMachine's.
 * Where the server did not get its share of the CPU, a flagged delay is
 * what a server short of CPU looks like, so nothing is judged, unless the
 * loop was late half the time or more (slow's is: machine.js).
 */
function describeEventLoopVerdict (variant, { summary, flagged }, machine) {
  const figures = `median ${ms(summary.p50)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}; loop busy ${percent(summary.utilization)} of the time`
  const busy = machine.measured && machine.busy
  if (busy && flagged && !machine.delayBeyondMachine) {
    return `${describeMachine(variant, machine).notJudged} Read from a server short of CPU: the delay is flagged (${figures})`
  }
  const notes = []
  if (busy && flagged) notes.push(`the machine was busy (${describeMachine(variant, machine).others}), and the delay is beyond what that explains`)
  if (!machine.measured) notes.push(`how busy the machine was is unknown: ${machine.why}`)
  const text = [figures, ...notes].join('; ')
  return flagged
    ? `${variant}: the event-loop delay is flagged (${text})`
    : `${variant}: no delay flagged (${text})`
}

function ms (value) {
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`
}

function percent (share) {
  return `${Math.round(share * 100)} %`
}

// Each second of the load on a line: how much of it the loop was late
// (the bar, one block a tenth), the delay's median, p99 and max, and how
// busy the loop and the CPU were.
function formatSamples (variant, samples) {
  const header = `Event loop of ${variant}, each second of the load (delays in ms past its 10 ms timer):\n` +
    '     late                     median     p99     max   loop busy   CPU (cores)'
  const rows = samples.map((sample, i) => {
    const late = Math.min(1, sample.delay / (sample.seconds * 1000))
    const bar = '#'.repeat(Math.round(late * 10)).padEnd(10, '.')
    return `  ${String(i + 1).padStart(2)}  ${bar} ${percent(late).padStart(5)}  ` +
      `${sample.p50.toFixed(1).padStart(10)} ${sample.p99.toFixed(1).padStart(7)} ${sample.max.toFixed(1).padStart(7)}` +
      `   ${percent(sample.utilization).padStart(9)}   ${sample.cpu.toFixed(2).padStart(11)}`
  })
  return [header, ...rows].join('\n')
}

function parseEventLoopCommandLine (argv) {
  const { positionals: [server, ...rest], load } = parseLoadCommandLine(argv, 'event-loop')
  const resolved = resolveServerPath(server)
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  return { server: resolved, ...load }
}

async function main (argv, { stdout, stderr }) {
  const { server, ...load } = parseEventLoopCommandLine(argv)
  const print = (text) => stdout.write(text + '\n')
  const result = await measureEventLoop(server, { ...load, log: print })
  if (result.code !== 0) {
    stderr.write(`event-loop: ${result.error}\n`)
    return result.code
  }
  print('\n' + formatSamples(result.name, result.samples))
  print(`\nevent-loop: ${result.verdict}`)
  print(`event-loop: ${DOCTOR_RULE}: ${result.delayVerdict}`)
  return 0
}

const command = { name: 'event-loop', usage: USAGE, main }

module.exports = { measureEventLoop, describeLeakVerdict, describeEventLoopVerdict, formatSamples, DOCTOR_RULE, command }

if (require.main === module) runAsProcess(command)
