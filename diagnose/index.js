'use strict'

// `node diagnose <tool> <server>`: clinic on one server under autocannon load,
// headless, then its findings in the terminal. Exit codes: 0 done (a "not
// judged" verdict too), 1 clinic failed or no 2xx response, 2 bad arguments or no clinic.

const fs = require('node:fs')
const path = require('node:path')
const { fork, spawnSync } = require('node:child_process')
const { runAsProcess, UsageError } = require('../tooling/command')
const { ROOT, VARIANTS, STORY_SERVERS, shownPath } = require('../tooling/repo')
const { resolveServerPath } = require('../tooling/server-path')
const { parseLoadCommandLine, DEFAULTS, LEAKING_REQUESTS, DOCTOR_CONNECTIONS, loadFor, defaultConnections, describeOutcome } = require('./load')
const { LEAKING } = require('../tooling/targets')
const { formatFrames, describeHottest } = require('./frames-table')

// clinic runs here, so its reports and Doctor's node_trace.*.log stay out of the root.
const CLINIC_DIR = path.join(ROOT, '.clinic')
const CLINIC_RUN = path.join(__dirname, 'clinic-run.js')
const TOOLS = ['doctor', 'flame', 'bubbleprof', 'heapprofiler']
// Time beyond the load for clinic to start, analyse and write its report:
// generous, to stop a clinic that hangs, not to judge a slow machine.
const CLINIC_OVERHEAD_SECONDS = 180

const USAGE = `Usage: node diagnose <tool> <server> [--connections N] [--duration SECONDS | --requests N]

Runs clinic <tool> on \`node <server>\` while autocannon loads it
(-c ${DEFAULTS.connections} for ${DEFAULTS.duration} s by default, ${LEAKING.join(', ')} for ${LEAKING_REQUESTS} requests;
-c ${DOCTOR_CONNECTIONS} for doctor), without a browser or a terminal.
A load that gets no 2xx response fails the run (exit 1): nothing to diagnose.
The report lands in .clinic/; its path is printed.
  tools:    ${TOOLS.join(', ')}
  server:   a variant (${VARIANTS.join(', ')}), a story's server
            (${STORY_SERVERS.join(', ')}),
            or the path of any server folder or file, your workshop copy say
After doctor, its verdict is printed; after flame, the hottest frames.
`

// Run clinic `tool` on `server`. Resolves to { code, error?, report, dataDir,
// load, ...readFindings' }. `html: false` skips the HTML report (report null).
async function diagnose (tool, server, {
  connections = defaultConnections(tool),
  duration,
  requests,
  log = console.log,
  clinicBin = resolveOrNull('clinic/bin.js'),
  html = true
} = {}) {
  if (!clinicBin) {
    return { code: 2, error: "clinic is not installed (an install with --omit=optional leaves it out): `npm ci` adds it; Node's own tools need nothing more: npm run event-loop, npm run profile" }
  }
  let entry, variant
  try {
    ({ entry, name: variant } = resolveServerPath(server))
  } catch (err) {
    return { code: 2, error: err.message }
  }
  // Loaded here: it needs clinic's packages, and a wrong version is reported, not a crash.
  let analysis
  try {
    analysis = require('./clinic-analysis')
  } catch (err) {
    return { code: 2, error: err.message }
  }
  const load = loadFor(variant, { connections, duration, requests })
  fs.mkdirSync(CLINIC_DIR, { recursive: true })
  removeStaleTraceLogs(log)
  const timeoutSeconds = load.timeLimitSeconds + CLINIC_OVERHEAD_SECONDS
  const run = await runInChild({ tool, command: serverCommand(variant, entry), load, html }, log, timeoutSeconds * 1000)
  if (run.timedOut) {
    return { code: 1, error: `clinic ${tool} did not finish within ${timeoutSeconds} s and was stopped, with the server it ran` }
  }
  if (run.error) return { code: 1, error: `clinic ${tool} failed: ${run.error}` }
  if (run.load.ok === 0) {
    return { code: 1, load: run.load, error: `the load got no 2xx response from ${variant} (${describeOutcome(run.load)}): ${tool} would have profiled an idle server, so nothing is reported` }
  }
  return { code: 0, report: run.html, dataDir: run.dataDir, load: run.load, ...await readFindings(tool, analysis, variant, run, load) }
}

// The logging story's servers log into a synchronous file, as in the bench.
function serverCommand (variant, entry) {
  const stdoutFile = variant.startsWith('stories/logging/')
    ? ['-r', path.join(ROOT, 'tooling', 'stdout-to-synchronous-file.js')]
    : []
  return [process.execPath, ...stdoutFile, entry]
}

// Doctor's verdict, read against how busy the machine was, or Flame's hottest frames.
async function readFindings (tool, analysis, variant, run, load) {
  if (tool === 'doctor') {
    const doctor = await analysis.readDoctorAnalysis(run.dataDir)
    const samples = await analysis.readProcessStats(run.dataDir)
    const machine = analysis.judgeMachine(run.load.cpu, samples)
    const unseen = load.amount && doctor.issues.delay !== 'performance'
      ? describeUnseenLeak(variant, longestDelayMs(samples, run.load.cpu), load.amount)
      : null
    return { analysis: doctor, machine, verdict: analysis.describeDoctorVerdict(variant, doctor, machine), unseen }
  }
  if (tool === 'flame') {
    const { folded, profilerShare, ownShare, all, ownByTotal } = await analysis.readHottestFrames(run.dataDir)
    return { frames: folded, profilerShare, ownShare, allFrames: all, ownByTotal }
  }
  return {}
}

function longestDelayMs (samples, cpu) {
  return Math.max(0, ...samples.filter((s) => s.timestamp > cpu.from && s.timestamp <= cpu.to).map((s) => s.delay))
}

// A fast machine serves a leak's `requests` in turns under Doctor's delay line;
// the growth in each response's cost shows at any speed (event-loop.js).
function describeUnseenLeak (variant, longestMs, requests) {
  return [`Doctor's delay rule sees no issue: on a CPU this fast, ${requests.toLocaleString('en-US')} requests stay under its line.`,
    '  the rule: one delay of 100 ms, or a median of 10 ms',
    `  the longest delay: ${Math.round(longestMs)} ms`,
    `  A leak shows in how the CPU a response costs grows. \`npm run event-loop -- ${variant}\` judges that.`].join('\n')
}

// Run clinic-run.js in .clinic/, echoing its output. Resolves to its last message,
// or { timedOut } once `timeoutMs` ended it and all it started (as Ctrl-C does).
function runInChild (job, log, timeoutMs) {
  return new Promise((resolve) => {
    const child = fork(CLINIC_RUN, [], {
      cwd: CLINIC_DIR,
      // Its own process group on POSIX, so the server ends with it (killTree).
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // No telemetry question (clinic would wait for an answer) and no update check.
      env: { ...process.env, NO_INSIGHT: '1', NO_UPDATE_NOTIFIER: '1', PORT: '0', STDOUT_FILE: path.join(CLINIC_DIR, 'stdout.log') }
    })
    let outcome = { error: 'it exited without a word' }
    let timedOut = false
    const end = () => killTree(child)
    const timer = setTimeout(() => { timedOut = true; end() }, timeoutMs)
    process.once('SIGINT', end)
    const relay = (chunk) => log(String(chunk).replace(/\r?\n$/, ''))
    child.stdout.on('data', relay)
    child.stderr.on('data', relay)
    child.on('message', (message) => {
      if (message.type === 'loaded') {
        log(`Load done: ${message.load.ok.toLocaleString('en-US')} 2xx of ${describeOutcome(message.load)} in ${message.load.seconds} s` +
          (message.load.stopped ? ` (stopped at its time limit of ${job.load.timeLimitSeconds} s)` : ''))
      } else {
        outcome = message.type === 'done' ? message : { error: message.error }
      }
    })
    child.once('close', () => {
      clearTimeout(timer)
      process.off('SIGINT', end)
      resolve(timedOut ? { timedOut } : outcome)
    })
    child.send({ type: 'run', ...job })
  })
}

function killTree (child) {
  if (child.exitCode !== null || child.signalCode !== null) return
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(child.pid), '/t', '/f'], { stdio: 'ignore' })
  } else {
    try { process.kill(-child.pid, 'SIGKILL') } catch {}
  }
}

// Doctor refuses to start beside trace logs an interrupted run left behind.
function removeStaleTraceLogs (log) {
  for (const file of fs.readdirSync(CLINIC_DIR).filter((name) => /^node_trace\.\d+\.log$/.test(name))) {
    log(`removing ${file}, left in .clinic/ by an interrupted clinic run`)
    fs.rmSync(path.join(CLINIC_DIR, file))
  }
}

function resolveOrNull (id) {
  try {
    return require.resolve(id)
  } catch {
    return null
  }
}

function parseDiagnoseCommandLine (argv) {
  const { positionals: [tool, server, ...rest], load } = parseLoadCommandLine(argv, ([tool]) => tool)
  if (!TOOLS.includes(tool)) throw new UsageError(`unknown tool "${tool ?? ''}": choose from ${TOOLS.join(', ')}`)
  const resolved = resolveServerPath(server)
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  return { tool, server: resolved, ...load }
}

async function main (argv, { stdout, stderr }) {
  const { tool, server, ...load } = parseDiagnoseCommandLine(argv)
  const print = (text) => stdout.write(text + '\n')
  const result = await diagnose(tool, server, { ...load, log: print })
  if (result.code !== 0) {
    stderr.write(`diagnose: ${result.error}\n`)
    return result.code
  }
  print(`\nReport: ${shownPath(process.cwd(), result.report)}`)
  if (result.verdict) print(`\n${result.verdict}`)
  if (result.unseen) print(`\n${result.unseen}`)
  if (result.frames) {
    print(`\n${describeHottest(result.frames, result.ownShare)}`)
    print(formatFrames('\nHottest frames by self time (Flame\'s default view: V8 and C++ frames folded into their callers):', result.frames))
    print(`  Left out: ${(result.profilerShare * 100).toFixed(1)} % of the samples, the process writing output in the C library: write, fputc.\n` +
      '  Mostly the profiler\'s own log and output. Flame gives them to the function it interrupted.\n' +
      '  Why: docs/diagnose.md, "Flame on fixed".')
    print(formatFrames('\nWith V8 and C++ frames shown:', result.allFrames))
    print(formatFrames('\nThis repo\'s functions by time on the stack, what they call included (where the time comes from):', result.ownByTotal))
  }
  return 0
}

const command = { name: 'diagnose', usage: USAGE, main }

module.exports = { diagnose, command }

if (require.main === module) runAsProcess(command)
