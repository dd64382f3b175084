'use strict'

// `npm run bench:calibrate -- [--runs N] [--levels LIST] [--targets LIST]`:
// how small a regression the gate (`bench:ci --baseline`) catches, on the
// machine it runs on. One clean run becomes the baseline; then --runs clean
// runs count the false alarms, and --runs runs per level count the catches,
// each level making fixed cost that many percent more CPU per request
// (through bench/cpu-tax.js, preloaded: no change to the product's code).
// Every run is the real command, `node bench --mode ci --baseline ...`,
// in a process of its own.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { runAsProcess, parseCommandLine, numberOption, UsageError } = require('../tooling/command')
const { median } = require('./stats')

const TAXED = 'fixed'
// "At least 19 times in 20" and "at most 1 false alarm in 20", as shares.
const MIN_CATCH_SHARE = 19 / 20
const MAX_FALSE_ALARM_SHARE = 1 / 20

const USAGE = `Usage: npm run bench:calibrate -- [--runs N] [--clean-runs N] [--levels LIST] [--targets LIST]

Measures the power of the gate (npm run bench:ci -- --baseline FILE) here:
one clean run as the baseline, --clean-runs clean runs (default: --runs) to
count false alarms, and --runs runs (default 20) per level (default levels:
5,10,20, in percent) with ${TAXED}'s CPU per request raised by that much, to count the
regressions caught. Levels run in order and stop at the first one caught
at least ${MIN_CATCH_SHARE * 100} % of the time. --targets is passed to each run (default: the
ci mode's targets). Each run takes what bench:ci takes.
`

async function main (argv, { stdout }) {
  const { values } = parseCommandLine(argv, {
    runs: { type: 'string' },
    'clean-runs': { type: 'string' },
    levels: { type: 'string' },
    targets: { type: 'string' }
  })
  const runs = numberOption('runs', values.runs, 20, { min: 1, integer: true })
  const cleanRuns = numberOption('clean-runs', values['clean-runs'], runs, { min: 0, integer: true })
  const levels = (values.levels ?? '5,10,20').split(',').map((text) => {
    const level = Number(text)
    if (!(level > 0)) throw new UsageError(`--levels wants percentages > 0, got "${text}"`)
    return level
  })
  const extra = values.targets ? ['--targets', values.targets] : []
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calibrate-'))
  const print = (line) => stdout.write(line + '\n')
  try {
    const baselineFile = path.join(dir, 'baseline.json')
    const baseline = await benchRun([...extra, '--json', baselineFile], baselineFile)
    const cleanCost = costOf(baseline.result)
    print(`baseline: ${TAXED} ${cleanCost.toFixed(2)} µs/req, cpu ${TAXED}/node-http ${gateValue(baseline.result).toFixed(3)} (${baseline.seconds.toFixed(0)} s)`)

    const measure = (label, count, args) => series(label, count, [...extra, '--baseline', baselineFile, ...args], { dir, print, cleanCost })
    const clean = await measure('clean', cleanRuns, [])
    const table = [{ level: 0, count: cleanRuns, ...clean }]
    for (const level of levels) {
      const micros = cleanCost * level / 100
      const taxed = await measure(`+${level} %`, runs, ['--cpu-tax', `${TAXED}=${micros.toFixed(3)}`])
      table.push({ level, micros, count: runs, ...taxed })
      if (taxed.alarms / runs >= MIN_CATCH_SHARE) break
    }

    print(`\nThe gate on this machine (alpha 0.01, ${extra.length ? values.targets : 'the ci targets'}):`)
    for (const row of table.filter((r) => r.count > 0)) {
      const what = row.level === 0 ? 'clean: false alarms' : `+${row.level} % (${row.micros.toFixed(2)} µs/req added, measured ${signed(row.measuredChange)}): caught`
      print(`  ${what.padEnd(52)} ${row.alarms} of ${row.count}${row.otherFailures ? `  (${row.otherFailures} runs failed on something else)` : ''}`)
    }
    const smallest = table.find((row) => row.level > 0 && row.alarms / runs >= MIN_CATCH_SHARE)
    if (cleanRuns > 0) {
      print(`False alarms: ${clean.alarms} of ${cleanRuns} (${clean.alarms / cleanRuns <= MAX_FALSE_ALARM_SHARE ? 'within' : 'MORE than'} 1 in 20).`)
    }
    print(smallest
      ? `Smallest regression caught at least 19 times in 20: +${smallest.level} % CPU per request in ${TAXED}.`
      : 'No level tried was caught 19 times in 20: try larger --levels.')
    return 0
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// `count` runs of bench:ci with `args`: how many raised the gate's alarm,
// how many failed on something else, and the taxed target's measured cost
// against the clean baseline's.
async function series (label, count, args, { dir, print, cleanCost }) {
  let alarms = 0
  let otherFailures = 0
  const changes = []
  for (let i = 1; i <= count; i++) {
    const file = path.join(dir, 'run.json')
    const { result, seconds } = await benchRun([...args, '--json', file], file)
    const gate = result.baseline.find((b) => b.name === `cpu ${TAXED}/node-http`)
    const alarm = gate.holds === false
    if (alarm) alarms++
    if (!alarm && result.failures?.length) otherFailures++
    changes.push(costOf(result))
    print(`  ${label.padEnd(7)} run ${String(i).padStart(2)}/${count}: cpu ${TAXED}/node-http ${gate.value.toFixed(3)} ` +
      `(${signed(gate.change)}, p = ${gate.pValue.toPrecision(2)}) ${alarm ? 'ALARM' : 'quiet'}  ${seconds.toFixed(0)} s`)
  }
  return { alarms, otherFailures, measuredChange: changes.length ? median(changes) / cleanCost - 1 : null }
}

function costOf (result) {
  return median(result.runs.filter((run) => run.target === TAXED).map((run) => run.cpuMicrosPerRequest))
}

function gateValue (result) {
  return result.ratios.find((r) => r.name === `cpu ${TAXED}/node-http`).value
}

function signed (change) {
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`
}

// `node bench --mode ci ...args`, in a process of its own; resolves to its
// --json result and how long it took. Its exit code is not the verdict: the
// result says which check failed.
function benchRun (args, jsonFile) {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname), '--mode', 'ci', ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: 'true' } })
    let stderr = ''
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 2 || !fs.existsSync(jsonFile)) return reject(new Error(`bench ${args.join(' ')} exited ${code}:\n${stderr}`))
      const result = JSON.parse(fs.readFileSync(jsonFile, 'utf8'))
      resolve({ result, seconds: (Date.now() - started) / 1000 })
    })
  })
}

const command = { name: 'bench:calibrate', usage: USAGE, main }

module.exports = { command }

if (require.main === module) runAsProcess(command)
