'use strict'

// `npm run event-loop -- <server>`: whether a server leaks, by the CPU a response costs late in
// the load against early (cost-growth.js), and its delay by Doctor's rule, which the machine's
// speed moves. docs/node-tools.md, "npm run event-loop", says how to read both. Exit codes: 0
// done ("not judged" too), 1 no 2xx response or the server failed, 2 bad arguments.

const path = require('node:path')
const { runAsProcess, UsageError } = require('../tooling/command')
const { resolveServerPath } = require('../tooling/server-path')
const { spawnServer } = require('../tooling/spawn-server')
const { parseLoadCommandLine, loadFor, defaultConnections, runLoad, describeLoad, describeOutcome, DOCTOR_CONNECTIONS, LEAKING_REQUESTS, DEFAULTS } = require('./load')
const { LEAKING } = require('../tooling/targets')
const { judgeMachine, describeMachine } = require('./machine')
const { judgeCostGrowth, describeCostGrowth, LEAK_GROWTH } = require('./cost-growth')

const PROBE = path.join(__dirname, 'event-loop-probe.js')
// Doctor's delay rule (@clinic/doctor/analysis/analyse-delay.js), read on a timer like Doctor's.
const FLAGGED_MEDIAN_MS = 10
const FLAGGED_MAX_MS = 100
// What Doctor's rule says after its verdict: the leak's holds on any machine, this one does not.
const MOVES_WITH_THE_CPU = "The CPU's speed can change this verdict."
// What the delay's figures start with. figures/catalogue.js keeps a copy (no tool imports another's
// command); test/diagnose/event-loop.test.js holds the two alike.
const DELAY_LINE = '  delay: median '
// The probe answers when the server's loop is free again, which slow's long turns delay.
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

// Resolves to { code, error?, name, load, samples, summary, machine, growth, leak, flagged, verdict,
// delayVerdict }; code 2 when nothing is at that path, 1 when the server did not start or got no 2xx.
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

// The leak's verdict: a sentence, then its figures on a line of their own. `flagged`, whether
// Doctor's rule flags the delay, tells a flat server that is slow from one that is not.
function describeLeakVerdict (variant, growth, flagged) {
  const figures = `  ${describeCostGrowth(growth)}`
  if (!growth.measured) return `${variant} is not judged for a leak: the CPU a response costs was not measured.\n  ${growth.why}`
  if (growth.leak) return `${variant} leaks: each response costs more CPU than the one before.\n${figures}`
  return flagged
    ? `${variant} does not leak, but it is slow: Doctor's rule flags its delay.\n${figures}`
    : `${variant} does not leak: a response costs no more late in the load than early.\n${figures}`
}

// Doctor's rule: a sentence that says the CPU's speed moves it, then its figures. On a server
// short of CPU a flagged delay is not judged, unless it is beyond what that explains (machine.js).
function describeEventLoopVerdict (variant, { summary, flagged }, machine) {
  const figures = [
    `${DELAY_LINE}${ms(summary.p50)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}`,
    `  the rule: a median delay of ${FLAGGED_MEDIAN_MS} ms, or one of ${FLAGGED_MAX_MS} ms`,
    `  loop busy: ${percent(summary.utilization)} of the time`
  ]
  const busy = machine.measured && machine.busy
  if (busy && flagged && !machine.delayBeyondMachine) {
    const { others, got } = describeMachine(variant, machine)
    return [`Doctor's rule did not judge ${variant}: the machine was busy. Run it again on a quieter machine.`,
      `  ${others}`, `  ${got}`, '  read from a server short of CPU, the delay is flagged', ...figures].join('\n')
  }
  const notes = []
  if (busy && flagged) notes.push(`  the machine was busy: ${describeMachine(variant, machine).others}`, '  the delay is beyond what that explains')
  if (!machine.measured) notes.push(`  how busy the machine was is unknown: ${machine.why}`)
  const verdict = flagged ? `Doctor's rule flags ${variant}'s event-loop delay.` : `Doctor's rule flags no delay in ${variant}.`
  return [`${verdict} ${MOVES_WITH_THE_CPU}`, ...figures, ...notes].join('\n')
}

function ms (value) {
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`
}

function percent (share) {
  return `${Math.round(share * 100)} %`
}

// A line a second: how much of it the loop was late (one block a tenth), the delay, loop and CPU use.
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

// What the command prints after the load: the table, the leak's verdict, Doctor's rule.
function formatResult ({ name, samples, verdict, delayVerdict }) {
  return `\n${formatSamples(name, samples)}\n\n${verdict}\n\n${delayVerdict}`
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
  print(formatResult(result))
  return 0
}

const command = { name: 'event-loop', usage: USAGE, main }

module.exports = { measureEventLoop, describeLeakVerdict, describeEventLoopVerdict, formatSamples, formatResult, DELAY_LINE, command }

if (require.main === module) runAsProcess(command)
