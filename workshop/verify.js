'use strict'

// `npm run verify -- PATH`: a participant's server (or any server that listens on PORT) checked level by level,
// each check ✓ or ✗ with what was sent and seen and where to read on, then its speed beside slow, fast and fixed.
// The checks are in levels/, the speed in speed.js; this file runs and prints them.
// Exit codes: 0 the contract and the levels asked for hold, 1 one does not (or the server did not start), 2 bad arguments.

const fs = require('node:fs')
const path = require('node:path')
const { runAsProcess, parseCommandLine, numberOption, UsageError } = require('../tooling/command')
const { resolveServerPath } = require('../tooling/server-path')
const { startTarget } = require('../tooling/target-process')
const { LEVELS, levelName, describeLevels } = require('./levels')
const { EXERCISES, exerciseOf } = require('./exercises')
const { compareSpeed, intervalText, shareText, RUN_IT_AGAIN, SPEED_PROTOCOL, SPEED_ALPHA, YOURS, LEAK_SIDES, exerciseSides } = require('./speed')
const { TARGETS } = require('../tooling/targets')
const { round } = require('../tooling/number-text')
const { wrapLine, LINE_WIDTH } = require('../tooling/wrap-text')
const { terminalProgress, NO_PROGRESS } = require('../bench/print/progress')

const TOP_LEVEL = LEVELS.length - 1

const USAGE = `Usage: npm run verify -- PATH [--level N] [--speed | --no-speed] [--watch]

Starts \`node PATH\` (your copy from \`npm run workshop -- new\`, a variant,
or any server that listens on PORT) on a free port and checks it:
${describeLevels()}
  speed     CPU per request and req/s beside fast and fixed, the three
            loaded at the same time in ${SPEED_PROTOCOL.rounds} rounds (up to ${SPEED_PROTOCOL.maxRounds} when they do
            not place yours), and slow; a verdict in words: where yours
            sits between fixed/ and fast/, with the range the rounds allow
            (40 to 90 s): after every level only, unless --speed
${describeOtherExercises()}
Each check is ✓, ✗ (with what was sent, what came back and a hint) or
– (could not be checked on this server).

Options:
  --level N   check the contract and levels 1 to N only, exit 0 when they
              hold (default ${TOP_LEVEL}, every level${EXERCISES.slice(1).map((e) => `; a ${e.name} copy's, ${e.levels.length - 1}`).join('')}); below
              the top level the speed is not measured
  --speed     measure the speed after a lower --level too
  --no-speed  skip the speed comparison
  --watch     check again whenever a file in PATH's folder is saved (the
              levels only; Ctrl-C to stop)
Exit codes: 0 the levels asked for hold, 1 one does not or the server did
not start, 2 bad arguments.
`

// Resolves to { code, passed: [contract, level 1, ...] (true, false, or null when not reached) }. Tests shorten
// the runs with `leakProtocol` and `speedProtocol`, preload through `nodeArgs`, and may stand in for the speed's
// servers with `measureSides` (compareSpeed).
// The exercise is the copy's own (exercises.js): its levels, its server's settings and what its speed is placed beside.
async function verify (server, { level, speed = true, speedSkipped = '(--no-speed).', print = console.log, leakProtocol, levelProtocols = {}, speedProtocol = SPEED_PROTOCOL, measureSides, nodeArgs = [], progress = NO_PROGRESS } = {}) {
  const { entry, name } = resolveServerPath(server)
  const exercise = exerciseOf(entry)
  const levels = exercise.levels
  level ??= levels.length - 1
  const exerciseText = exercise === EXERCISES[0] ? '' : `, the ${exercise.name} exercise`
  print(`Verifying ${name}${exerciseText}: node ${name}, started on a free port of 127.0.0.1 (Node ${process.version})`)
  let target
  try {
    target = await startTarget(entry, { seed: 'verify', env: exercise.env, nodeArgs: [...(exercise.nodeArgs ?? []), ...nodeArgs] })
  } catch (err) {
    print(`\n${mark(false)} ${name} starts and listens on PORT\n      seen: ${indent(err.message)}\n      hint: run \`node ${name}\` to see the error`)
    print(`\n${name} did not start, so no level was checked.`)
    return { code: 1, passed: levels.map(() => false) }
  }
  const passed = []
  let leaking = false
  try {
    // Levels above the one asked for are not run: a participant on level 1 has nothing to fix there yet.
    for (const [index, { title, check: checkLevel }] of levels.slice(0, level + 1).entries()) {
      print(`\n${title}`)
      const result = await checkLevel(target, { protocol: index === 1 && exercise === EXERCISES[0] ? leakProtocol : levelProtocols[index], entry })
      if (result.leaking) leaking = true
      for (const check of result.checks) print(renderCheck(check))
      passed.push(result.checks.every((check) => check.pass !== false))
      if (index === 0 && !passed[0]) break // nothing else means much without the resource
    }
  } finally {
    await target.stop()
  }
  const reached = passed.length
  while (passed.length < levels.length) passed.push(null)

  const asked = level + 1
  print('\n' + passed.map((ok, i) => `${levelName(i)} ${i >= asked ? 'not asked' : ok === null ? '–' : mark(ok)}`).join('   '))
  print(levelVerdict(passed, { asked, reached, exercise }).join('\n'))
  const code = passed.slice(0, asked).every((ok) => ok === true) ? 0 : 1

  if (!speed) {
    print(`\nSpeed: not measured ${speedSkipped}`)
  } else {
    // Yours is loaded as the story's servers are: their headers, and the settings verify started it with.
    const sides = exercise.speed ? exerciseSides(exercise.speed) : LEAK_SIDES
    const yours = exercise.speed ? { headers: exercise.speed.headers, env: exercise.env } : {}
    print('\n' + describeSpeedProtocol(speedProtocol, name, leaking, sides).join('\n'))
    print(renderSpeed(await measureSpeed(entry, { name, leaking, protocol: speedProtocol, progress, measureSides, sides, yours }), name, sides))
  }
  return { code, passed }
}

// The levels' verdict in a sentence or two, after the summary line: the first level that fails says so, or the one
// below it holds and the next is explained where the participant meets it (a level's `asks`).
function levelVerdict (passed, { asked, reached, exercise }) {
  const levels = exercise.levels
  const failed = passed.findIndex((ok, i) => i < reached && ok === false)
  if (failed === -1 && asked === levels.length) return [exercise.allHeld]
  if (failed === -1) {
    const next = levels[asked]
    return [`${levels[asked - 1].held} Level ${asked} is next: \`--level ${asked}\` checks it too.`, ...(next.asks ?? [])]
  }
  const { failing, asks } = levels[failed]
  if (!asks) return [failing, 'The hint under each ✗ says where to look.']
  const open = passed.map((ok, i) => i).filter((i) => i >= failed && passed[i] !== true)
  const next = open.length === 1 ? `Level ${failed} is next.` : `Levels ${open.slice(0, -1).join(', ')} and ${open.at(-1)} are next.`
  return [`${levels[failed - 1].held} ${next}`, ...asks]
}

// The rounds shown as they end: the longest step of verify prints nothing else until its verdict.
async function measureSpeed (entry, { name, leaking, protocol, progress, measureSides, sides, yours }) {
  const roundsText = (done) => done <= protocol.rounds
    ? `  ${done} of ${protocol.rounds} rounds measured`
    : `  ${done} rounds measured (up to ${protocol.maxRounds})`
  progress.show(roundsText(0))
  try {
    return await compareSpeed(entry, {
      name,
      leaking,
      protocol,
      measureSides,
      sides,
      yours,
      onRun: (run) => { if (run.by === 'time') progress.show(roundsText(run.round)) }
    })
  } finally {
    progress.end()
  }
}

// A check on one line when it fits (✓ and what was seen), else its mark and name, then what was sent and seen
// and the hint, each wrapped under its label.
function renderCheck ({ name, pass, sent, seen, hint }) {
  const passed = `  ${mark(true)} ${name}: ${seen}`
  if (pass === true && passed.length <= LINE_WIDTH) return passed
  const lines = [wrapLine(`  ${pass === null ? '–' : mark(pass)} `, name)]
  if (sent && pass !== true) lines.push(wrapLine('      sent: ', sent))
  lines.push(wrapLine('      seen: ', seen))
  if (pass === false && hint) lines.push(wrapLine('      hint: ', hint))
  return lines.join('\n')
}

// What is about to be measured, printed before the longest step of verify begins: a line each.
function describeSpeedProtocol (protocol, name, leaking, sides) {
  const shown = (target) => labelOf(target, sides).replace(/\/$/, '')
  const timedSides = sides.beside.filter((target) => !TARGETS[target].leaking).map(shown)
  const countedSides = sides.beside.filter((target) => TARGETS[target].leaking).map(shown)
  const byTime = listed(leaking ? timedSides : [name, ...timedSides])
  const byCount = leaking ? `${listed(countedSides)} and ${name} (its cost grows)` : listed(countedSides)
  const rounds = !leaking && protocol.maxRounds > protocol.rounds ? `${protocol.rounds} to ${protocol.maxRounds}` : `${protocol.rounds}`
  return [
    `Speed: ${byTime} loaded at the same time, each in a fresh process, in ${rounds} rounds.`,
    `  Each round: autocannon -c ${protocol.connections} on each, ${protocol.warmup} s of warm-up, then ${protocol.duration} s measured.`,
    ...(byCount ? [`  ${byCount} measured by requests, once: ${protocol.warmupRequests} of warm-up, then ${protocol.requests}.`] : [])
  ]
}

// A target as the verdict names it: the leak's variants as folders (fixed/), a story's server by its name.
function labelOf (target, { from, to, slow, labels }) {
  return { [from]: labels.from, [to]: labels.to, ...(slow ? { [slow]: labels.slow } : {}) }[target] ?? target
}

function listed (names) {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

// The verdict first, in a sentence (and a request to run again where the rounds place nothing), then its figures.
function renderSpeed ({ protocol, summaries, comparisons, between, verdict }, name, sides = LEAK_SIDES) {
  const shown = (target) => target === YOURS ? `${name} (yours)` : target
  const width = Math.max(...summaries.map((s) => shown(s.target).length))
  const rows = summaries.map((s) => `  ${shown(s.target).padEnd(width)}  ${round(s.requestsPerSecond).padStart(8)} req/s  ${round(s.cpuMicrosPerRequest).padStart(8)} µs CPU per request`)
  const lead = `  ${name}'s CPU per request: `
  const against = sides.line.map((other, i) => `${i === 0 ? lead : ' '.repeat(lead.length)}${round(comparisons[other].ratio)} x ${labelOf(other, sides)}'s${intervalText(comparisons[other])}`)
  const lines = ['', verdict.sentence, ...(verdict.again ? [RUN_IT_AGAIN] : []), ...verdict.figures.map((line) => `  ${line}`), ...rows, ...against]
  if (between?.resolvable) {
    const { share, interval: [low, high], fastOverFixed } = between
    const { from, to } = sides.labels
    lines.push(`  Between ${from} (0) and ${to} (1): ${shareText(share)} (${shareText(low)} to ${shareText(high)}); ${to} ${round(fastOverFixed.ratio)} x ${from}'s${intervalText(fastOverFixed)}`)
  }
  lines.push(`  In brackets: ${Math.round((1 - 2 * SPEED_ALPHA) * 100)} % intervals over ${protocol.rounds} rounds.`)
  return lines.join('\n')
}

function mark (ok) {
  return ok ? '✓' : '✗'
}

function indent (text) {
  return text.trim().split('\n').join('\n            ')
}

// Checks again on every save under `dir`, one run at a time; resolves to the last run's exit code on Ctrl-C.
function watch (dir, runOnce, print) {
  return new Promise((resolve) => {
    let lastCode = 1
    let running = null
    let again = false
    let timer = null
    const rerun = async () => {
      if (running) { again = true; return }
      running = runOnce().then(({ code }) => { lastCode = code })
      await running
      running = null
      print(`\nWatching ${dir} for changes (Ctrl-C to stop)`)
      if (again) { again = false; rerun() }
    }
    const watcher = fs.watch(dir, { recursive: true }, (event, file) => {
      clearTimeout(timer)
      // Editors write a file in several steps: wait for them to settle.
      timer = setTimeout(() => {
        print(`\n--- ${file ?? 'a file'} changed: checking again ---`)
        rerun()
      }, 300)
    })
    process.once('SIGINT', () => {
      watcher.close()
      clearTimeout(timer)
      resolve(lastCode)
    })
    rerun()
  })
}

// The other exercises' levels in the help, under the leak's: a line each.
function describeOtherExercises () {
  return EXERCISES.slice(1).map(({ name, levels }) => `A ${name} copy (workshop -- new ${name}) is checked at its own levels:\n` +
    levels.map(({ usage }, index) => `  ${levelName(index).padEnd(8)}  ${usage.join('\n' + ' '.repeat(12))}`).join('\n')).join('\n')
}

function parseVerifyCommandLine (argv) {
  const { values, positionals } = parseCommandLine(argv, {
    level: { type: 'string' },
    speed: { type: 'boolean' },
    watch: { type: 'boolean', default: false }
  }, { positionals: true, allowNegative: true })
  const [target, ...rest] = positionals
  const server = resolveServerPath(target)
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  const top = exerciseOf(server.entry).levels.length - 1
  const level = numberOption('level', values.level, top, { min: 0, integer: true, max: top })
  let speedSkipped = null
  if (values.watch) speedSkipped = 'with --watch. Run verify without it to measure the speed.'
  else if (values.speed === false) speedSkipped = '(--no-speed).'
  else if (level < top && values.speed !== true) speedSkipped = `with --level ${level}. Add --speed to measure it.`
  return { server, level, speed: speedSkipped === null, speedSkipped, watch: values.watch }
}

async function main (argv, { stdout, stderr }) {
  const { server, level, speed, speedSkipped, watch: watching } = parseVerifyCommandLine(argv)
  const print = (text) => stdout.write(text + '\n')
  const runOnce = () => verify(server, { level, speed, speedSkipped, print, progress: terminalProgress(stderr) })
  if (!watching) return (await runOnce()).code
  const { entry } = server
  const dir = fs.statSync(entry).isDirectory() ? entry : path.dirname(entry)
  return watch(dir, runOnce, print)
}

const command = { name: 'verify', usage: USAGE, main }

module.exports = { verify, command }

if (require.main === module) runAsProcess(command)
