'use strict'

// `npm run profile -- SERVER`: where the time goes, with what Node ships. The
// server runs under `node --cpu-prof` with Flame's load, then exits, which is
// when Node writes the profile; its hottest frames are printed as Flame's are.

const fs = require('node:fs')
const path = require('node:path')
const { spawnServer } = require('../tooling/spawn-server')
const { runAsProcess, UsageError } = require('../tooling/command')
const { ROOT, VARIANTS, shownPath } = require('../tooling/repo')
const { resolveServerPath } = require('../tooling/server-path')
const { parseLoadCommandLine, DEFAULTS, LEAKING_REQUESTS, loadFor, defaultConnections, runLoad, describeLoad, describeOutcome } = require('./load')
const { LEAKING } = require('../tooling/targets')
const { parseCpuProfile, hottestFrames, ownFramesByTotal, callTree } = require('./cpu-profile')
const { flameGraphPage } = require('./flame-graph-page')
const { formatFrames, describeHottest } = require('./frames-table')

// Out of git, like .clinic/: a profile names the paths of the machine it was taken on.
const PROFILE_DIR = path.join(ROOT, '.profile')

const USAGE = `Usage: npm run profile -- SERVER [--connections N] [--duration SECONDS | --requests N]

Runs \`node --cpu-prof SERVER\` under the load \`npm run flame\` puts on it
(autocannon -c ${DEFAULTS.connections} for ${DEFAULTS.duration} s; ${LEAKING.join(', ')} for ${LEAKING_REQUESTS} requests), then prints the
hottest functions by self time and this repo's functions by time on the
stack. A load that gets no 2xx response fails the run (exit 1).
  SERVER  a variant (${VARIANTS.join(', ')}), a story's server (stories/crypto/slow.js),
          or the path of any server folder or file, your workshop copy say
Writes to .profile/: the .cpuprofile (Chrome DevTools' Performance panel,
"Load profile...", or https://www.speedscope.app, which reads it in the
browser) and a flame graph as one HTML file that opens offline.
Exit codes: 0 done, 1 no 2xx response or no profile, 2 bad arguments.
`

// Profile the server at `entry` under load. Resolves to { code, error?, load,
// cpuprofile, html, hottest, unfolded, ownByTotal }; code 1 when the load got
// no 2xx response (the profile is removed) or the server wrote none.
async function profile ({ entry, name }, { connections = defaultConnections('profile'), duration, requests, dir = PROFILE_DIR, log = () => {} } = {}) {
  const load = loadFor(name, { connections, duration, requests })
  fs.mkdirSync(dir, { recursive: true })
  const base = path.join(dir, fileBase(name))
  const cpuprofile = `${base}.cpuprofile`
  const { result, exit } = await runUnderProfiler(entry, name, load, base, log)
  if (result.ok === 0) {
    fs.rmSync(cpuprofile, { force: true })
    return { code: 1, load: result, error: `the load got no 2xx response from ${name} (${describeOutcome(result)}): the profile would be of a server that did no work, so nothing is reported` }
  }
  if (!fs.existsSync(cpuprofile)) {
    return { code: 1, load: result, error: `${name} wrote no profile (it exited with ${exit}): Node writes one only when the process exits normally` }
  }
  const parsed = parseCpuProfile(fs.readFileSync(cpuprofile, 'utf8'))
  const hottest = hottestFrames(parsed, { foldInternals: true })
  const unfolded = hottestFrames(parsed)
  const html = `${base}.html`
  fs.writeFileSync(html, flameGraphPage({
    title: `CPU profile of ${name}`,
    about: [`${describeLoad(load)}: ${describeOutcome(result)}`, describeSamples(parsed, hottest)],
    tree: callTree(parsed)
  }))
  return { code: 0, load: result, cpuprofile, html, hottest, unfolded, ownByTotal: ownFramesByTotal(parsed) }
}

// Resolves to the load's result and how the server exited; it exits even when the load failed.
async function runUnderProfiler (entry, name, load, base, log) {
  const profiler = ['--cpu-prof', '--cpu-prof-dir', path.dirname(base), '--cpu-prof-name', `${path.basename(base)}.cpuprofile`]
  // The logging story's servers write into a synchronous file, as in the bench and under Flame.
  const logging = name.startsWith('stories/logging/')
  const stdoutFile = `${base}.stdout.log`
  const server = await spawnServer(entry, {
    nodeArgs: [...profiler, ...(logging ? ['-r', path.join(ROOT, 'tooling', 'stdout-to-synchronous-file.js')] : [])],
    env: logging ? { STDOUT_FILE: stdoutFile } : {}
  })
  let result
  try {
    log(`${name} listening on ${server.url}, under node --cpu-prof`)
    log(`Loading it: ${describeLoad(load)}`)
    result = await runLoad(Number(new URL(server.origin).port), load)
    log(`Load done: ${result.ok.toLocaleString('en-US')} 2xx of ${describeOutcome(result)} in ${result.seconds} s` +
      (result.stopped ? ` (stopped at its time limit of ${load.timeLimitSeconds} s)` : ''))
  } finally {
    await server.exit()
    if (logging) fs.rmSync(stdoutFile, { force: true })
  }
  const { exitCode, signalCode } = server.child
  return { result, exit: signalCode ?? `code ${exitCode}` }
}

// The server's name, the time and the pid, in the order Node names its own
// profiles: no run overwrites another's, even two at once.
function fileBase (name, now = new Date(), pid = process.pid) {
  const server = name.replace(/\.js$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '')
  const two = (n) => String(n).padStart(2, '0')
  const date = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}`
  const time = `${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`
  return `${server}.${date}.${time}.${pid}`
}

function describeSamples (parsed, { samples, idleShare }) {
  const seconds = (parsed.endTime - parsed.startTime) / 1e6
  const every = parsed.samples.length > 1 ? (parsed.endTime - parsed.startTime) / 1000 / parsed.samples.length : null
  return `${samples.toLocaleString('en-US')} samples counted over ${seconds.toFixed(1)} s` +
    (every ? `, one every ${every.toFixed(1)} ms` : '') +
    `; (idle) left out: ${(idleShare * 100).toFixed(1)} % of all samples, the server waiting for work`
}

function parseProfileCommandLine (argv) {
  const { positionals, load } = parseLoadCommandLine(argv, 'profile')
  if (positionals.length > 1) throw new UsageError(`one server at a time, got "${positionals.join(' ')}"`)
  return { server: resolveServerPath(positionals[0]), ...load }
}

async function main (argv, { stdout, stderr }) {
  const { server, ...load } = parseProfileCommandLine(argv)
  const print = (text) => stdout.write(text + '\n')
  const result = await profile(server, { ...load, log: print })
  if (result.code !== 0) {
    stderr.write(`profile: ${result.error}\n`)
    return result.code
  }
  const { hottest, unfolded, ownByTotal } = result
  print(`\n${describeHottest(hottest.frames, hottest.ownShare)}`)
  print(`  samples counted: ${hottest.samples.toLocaleString('en-US')}, not counting the ${(hottest.idleShare * 100).toFixed(1)} % where the server was idle`)
  print(formatFrames('\nHottest frames by self time. V8\'s builtins and Node\'s C++ count in the function that called them,\n' +
    'and Node\'s internal modules (node:internal) in the nearest caller outside them:', hottest.frames))
  print(formatFrames('\nWith Node\'s internal modules shown. "<- from" names the function of this repo\n' +
    'nearest below it on the stack, in most of its samples:', unfolded.frames))
  print(formatFrames('\nThis repo\'s functions by time on the stack, what they call included (where the time comes from):', ownByTotal))
  print(`\nProfile:     ${shownPath(process.cwd(), result.cpuprofile)}`)
  print('  Open it in Chrome DevTools: the Performance panel, "Load profile...".')
  print('  Or drop it on https://www.speedscope.app, which reads it in the browser and uploads nothing.')
  print(`Flame graph: ${shownPath(process.cwd(), result.html)}`)
  return 0
}

const command = { name: 'profile', usage: USAGE, main }

module.exports = { profile, fileBase, command }

if (require.main === module) runAsProcess(command)
