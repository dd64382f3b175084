'use strict'

// `node diagnose <tool> <server>`: a clinic run of one server (a variant, a
// story's server, or any server's path, such as a workshop copy) under
// autocannon load, headless, followed by what clinic found, in the terminal.
//   tools: doctor, flame, bubbleprof, heapprofiler
// Exit codes: 0 done, 1 clinic failed, 2 bad arguments or clinic missing.

const fs = require('node:fs')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { fileURLToPath } = require('node:url')
const { runAsProcess, parseCommandLine, numberOption, UsageError } = require('../tooling/command')
const { ROOT, VARIANTS, STORY_SERVERS } = require('../tooling/repo')
const { STORY_REQUEST_HEADERS } = require('../tooling/story-headers')
const { resolveServerPath } = require('../tooling/server-path')
const { SEED_PATH } = require('../core/seed-contract')

// clinic runs from here: its reports and its scratch files (Doctor's
// node_trace.*.log) stay out of the repo's root.
const CLINIC_DIR = path.join(ROOT, '.clinic')
const TOOLS = ['doctor', 'flame', 'bubbleprof', 'heapprofiler']
const DEFAULTS = { connections: 100, duration: 5 }
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
// Beyond the load itself, time for clinic to start, collect and analyse.
const CLINIC_OVERHEAD_SECONDS = 60

const USAGE = `Usage: node diagnose <tool> <server> [--connections N] [--duration SECONDS]

Runs clinic <tool> on \`node <server>\` while autocannon loads it
(-c ${DEFAULTS.connections} for ${DEFAULTS.duration} s by default; -c ${DOCTOR_CONNECTIONS} for doctor), without a browser or a terminal.
The report lands in .clinic/; its path is printed.
  tools:    ${TOOLS.join(', ')}
  server:   a variant (${VARIANTS.join(', ')}), a story's server
            (${STORY_SERVERS.join(', ')}),
            or the path of any server folder or file, your workshop copy say
After doctor, its verdict is printed; after flame, the hottest frames.
`

/**
 * Run clinic `tool` on `server` (a variant's or story's name, or a path).
 * Resolves to { code, error?, report, dataDir, verdict?, analysis?,
 * frames?, allFrames?, ownByTotal? }; code 2 when clinic is not installed
 * or not the pinned version, or nothing is at that path, 1 when its run failed.
 */
async function diagnose (tool, server, {
  connections = defaultConnections(tool),
  duration = DEFAULTS.duration,
  log = console.log,
  clinicBin = resolveOrNull('clinic/bin.js')
} = {}) {
  if (!clinicBin) {
    return { code: 2, error: 'clinic is not installed: run `npm ci` (it is a dev dependency)' }
  }
  let entry, variant
  try {
    ({ entry, name: variant } = resolveServerPath(server))
  } catch (err) {
    return { code: 2, error: err.message }
  }
  // Loaded here, not at the top: it needs clinic's packages, whose absence
  // (above) or wrong version it reports with a message instead of a crash.
  let analysis
  try {
    analysis = require('./clinic-analysis')
  } catch (err) {
    return { code: 2, error: err.message }
  }
  // Quoted: clinic runs the load through a shell, and a Basic header has a space.
  const headers = Object.entries(STORY_REQUEST_HEADERS[variant] ?? {}).flatMap(([name, value]) => ['-H', `'${name}=${value}'`])
  const load = [process.execPath, require.resolve('autocannon/autocannon.js'),
    '-c', connections, '-d', duration, ...headers, `http://127.0.0.1:$PORT${SEED_PATH}`].join(' ')
  // The logging story's servers log into a synchronous file, as they do in
  // the bench, rather than into 0x's pipe (see the preload).
  const stdoutFile = variant.startsWith('stories/logging/')
    ? ['-r', path.join(ROOT, 'tooling', 'stdout-to-synchronous-file.js')]
    : []
  const args = [clinicBin, tool, '--open=false', '--dest', '.', '--on-port', load,
    '--', process.execPath, ...stdoutFile, entry]
  fs.mkdirSync(CLINIC_DIR, { recursive: true })
  removeStaleTraceLogs(log)
  const timeoutSeconds = duration + CLINIC_OVERHEAD_SECONDS
  const { code, output, timedOut } = await run(process.execPath, args, {
    cwd: CLINIC_DIR,
    // Headless: no telemetry question (clinic would otherwise wait for an
    // answer, or without a terminal silently do nothing), no update check.
    env: { ...process.env, NO_INSIGHT: '1', NO_UPDATE_NOTIFIER: '1', PORT: '0', STDOUT_FILE: path.join(CLINIC_DIR, 'stdout.log') }
  }, log, timeoutSeconds * 1000)
  if (timedOut) {
    return { code: 1, error: `clinic ${tool} did not finish within ${timeoutSeconds} s and was stopped, with the variant it ran` }
  }
  const report = /Generated HTML file is (file:\/\/\S+)/.exec(output)
  if (code !== 0 || !report) return { code: 1, error: `clinic ${tool} failed (exit code ${code})` }

  const reportPath = fileURLToPath(report[1])
  const result = { code: 0, report: reportPath, dataDir: reportPath.replace(/\.html$/, '') }
  if (tool === 'doctor') {
    result.analysis = await analysis.readDoctorAnalysis(result.dataDir)
    result.verdict = analysis.describeDoctorVerdict(variant, result.analysis)
  } else if (tool === 'flame') {
    const { folded, all, ownByTotal } = await analysis.readHottestFrames(result.dataDir)
    result.frames = folded
    result.allFrames = all
    result.ownByTotal = ownByTotal
  }
  return result
}

// Run a command, echoing and collecting its output. After `timeoutMs` the
// command's whole process group (clinic and the server it started) is killed.
function run (command, args, options, log, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      process.kill(-child.pid, 'SIGKILL')
    }, timeoutMs)
    const relay = (chunk) => {
      output += chunk
      log(String(chunk).replace(/\n$/, ''))
    }
    child.stdout.on('data', relay)
    child.stderr.on('data', relay)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output, timedOut })
    })
  })
}

// Doctor refuses to start beside trace logs an interrupted run left behind.
function removeStaleTraceLogs (log) {
  for (const file of fs.readdirSync(CLINIC_DIR).filter((name) => /^node_trace\.\d+\.log$/.test(name))) {
    log(`removing ${file}, left in .clinic/ by an interrupted clinic run`)
    fs.rmSync(path.join(CLINIC_DIR, file))
  }
}

function defaultConnections (tool) {
  return tool === 'doctor' ? DOCTOR_CONNECTIONS : DEFAULTS.connections
}

function formatFrames (title, frames) {
  return [title, ...frames.map((f) =>
    `  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.functionName}  ${f.location}${f.own ? '   <- this repo' : ''}`)].join('\n')
}

function resolveOrNull (id) {
  try {
    return require.resolve(id)
  } catch {
    return null
  }
}

function parseDiagnoseCommandLine (argv) {
  const { values, positionals } = parseCommandLine(argv, {
    connections: { type: 'string' },
    duration: { type: 'string' }
  }, { positionals: true })
  const [tool, server, ...rest] = positionals
  if (!TOOLS.includes(tool)) throw new UsageError(`unknown tool "${tool ?? ''}": choose from ${TOOLS.join(', ')}`)
  const { entry } = resolveServerPath(server)
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  return {
    tool,
    server: entry,
    connections: numberOption('connections', values.connections, defaultConnections(tool), { min: 1, integer: true }),
    duration: numberOption('duration', values.duration, DEFAULTS.duration, { min: 1 })
  }
}

async function main (argv, { stdout, stderr }) {
  const { tool, server, ...load } = parseDiagnoseCommandLine(argv)
  const print = (text) => stdout.write(text + '\n')
  const result = await diagnose(tool, server, { ...load, log: print })
  if (result.code !== 0) {
    stderr.write(`diagnose: ${result.error}\n`)
    return result.code
  }
  print(`\nReport: ${path.relative(process.cwd(), result.report)}`)
  if (result.verdict) print(`Doctor: ${result.verdict}`)
  if (result.frames) {
    print(formatFrames('\nHottest frames by self time (Flame\'s default view: V8 and C++ frames folded into their callers):', result.frames))
    print(formatFrames('\nWith V8 and C++ frames shown:', result.allFrames))
    print(formatFrames('\nThis repo\'s functions by time on the stack, what they call included (where the time comes from):', result.ownByTotal))
  }
  return 0
}

const command = { name: 'diagnose', usage: USAGE, main }

module.exports = { diagnose, command }

if (require.main === module) runAsProcess(command)
