'use strict'

// `npm run bench:calibrate`: how small a regression a gate catches on this machine, and how often
// it cries wolf. Each level makes fixed cost that many per cent more (bench/measure/cpu-tax.js, or
// work-tax.js with --meter instructions, preloaded: the product's code is unchanged). Every run is
// the gate's real command, in a process of its own.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { runAsProcess, parseCommandLine, numberOption, UsageError } = require('../../tooling/command')
const { median } = require('../judge/stats')
const { signedPercent } = require('../../tooling/number-text')
const { theTargetIn } = require('../protocol/targets')
const { parseMeter, NAMES: METER_NAMES, METERS: { instructions: INSTRUCTION_METER } } = require('../meters')
const { PROTOCOL_OPTIONS } = require('../protocol/options')

const TAXED = theTargetIn('calibrate')
// "At least 19 times in 20" and "at most 1 false alarm in 20", as shares.
const MIN_CATCH_SHARE = 19 / 20
const MAX_FALSE_ALARM_SHARE = 1 / 20
// With --meter instructions the CPU rounds are only reported: the fewest each gate takes.
const INSTRUCTION_CPU_ROUNDS = INSTRUCTION_METER.calibration.cpuRounds

const USAGE = `Usage: npm run bench:calibrate -- [--gate ci|compare] [--meter cpu|instructions] [--runs N] [--clean-runs N] [--levels LIST] [--targets LIST] [--alpha P]

Measures the power of a gate here: --clean-runs clean runs (default:
--runs) count false alarms, and --runs runs (default 20; 0: none) per level (default
levels: 5,10,20, in percent) with ${TAXED}'s CPU per request raised by that much
count the regressions caught. Levels run in order and stop at the first
one caught at least ${MIN_CATCH_SHARE * 100} % of the time.
  --gate ci       npm run bench:ci -- --baseline FILE, against one clean run
                  made first (the default)
  --gate compare  npm run bench:compare -- --base HEAD: base and head the
                  same commit, ${TAXED} taxed on the head's side only
  --meter instructions
                  both gates on instructions per request (valgrind): the
                  tax is that share of ${TAXED}'s count in instructions of work,
                  on both sides' ${TAXED} (none on the clean side); default
                  levels 0.2,0.5,1; CPU is measured in ${INSTRUCTION_CPU_ROUNDS.ci} round (ci)
                  or ${INSTRUCTION_CPU_ROUNDS.compare} (compare), reported only
--targets and --alpha are passed to each run (default: the gate's own).
Each run takes what the gate's command takes.
`

async function main (argv, { stdout }) {
  const { values } = parseCommandLine(argv, {
    gate: { type: 'string', default: 'ci' },
    runs: { type: 'string' },
    'clean-runs': { type: 'string' },
    levels: { type: 'string' },
    targets: { type: 'string' },
    alpha: { type: 'string' },
    meter: PROTOCOL_OPTIONS.meter
  })
  const meter = parseMeter(values.meter, { choices: METER_NAMES.join(' or ') })
  if (!Object.hasOwn(GATES, values.gate)) throw new UsageError(`--gate must be one of ${Object.keys(GATES).join(', ')}, got "${values.gate}"`)
  const gate = gateOf(values.gate, meter)
  const runs = numberOption('runs', values.runs, 20, { min: 0, integer: true })
  const cleanRuns = numberOption('clean-runs', values['clean-runs'], runs, { min: 0, integer: true })
  if (gate.baseCostOf && cleanRuns === 0) throw new UsageError(`--gate compare takes ${TAXED}'s cost from its clean runs: --clean-runs must be at least 1`)
  const levels = (values.levels ?? meter.calibration.levels).split(',').map((text) => {
    const level = Number(text)
    if (!(level > 0)) throw new UsageError(`--levels wants percentages > 0, got "${text}"`)
    return level
  })
  const extra = [
    ...(values.targets ? ['--targets', values.targets] : []),
    ...(values.alpha ? ['--alpha', values.alpha] : []),
    ...meter.calibration.runArgs(values.gate)
  ]
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calibrate-'))
  const print = (line) => stdout.write(line + '\n')
  try {
    const setup = await gate.setUp({ extra, dir, print })
    const measure = (label, count, args) => series(label, count, [...setup.args, ...args], { gate, dir, print, cleanCost: setup.cleanCost })
    const clean = await measure('clean', cleanRuns, gate.cleanTax ?? [])
    const table = [{ level: 0, count: cleanRuns, ...clean }]
    const cleanCost = setup.cleanCost ?? median(clean.baseCosts)
    if (gate.baseCostOf) print(`${TAXED}: ${cleanCost.toFixed(2)} ${gate.unit}, the median of the clean runs' base sides`)
    for (const level of runs > 0 ? levels : []) {
      const amount = cleanCost * level / 100
      const taxed = await measure(`+${level} %`, runs, gate.tax(amount))
      table.push({ level, amount, count: runs, ...taxed })
      if (taxed.alarms / runs >= MIN_CATCH_SHARE) break
    }

    print(`\nThe ${values.gate} gate on this machine (${extra.length ? extra.join(' ') : 'its own targets and alpha'}):`)
    printTable(table, { gate, runs, print })
    return 0
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function printTable (table, { gate, runs, print }) {
  const [clean] = table
  for (const row of table.filter((r) => r.count > 0)) {
    const what = row.level === 0 ? 'clean: false alarms' : `+${row.level} % (${row.amount.toFixed(2)} ${gate.unit} added, measured ${signedPercent(row.measuredChange)}): caught`
    print(`  ${what.padEnd(52)} ${row.alarms} of ${row.count}${row.otherFailures ? `  (${row.otherFailures} runs failed on something else)` : ''}`)
  }
  const smallest = table.find((row) => row.level > 0 && row.alarms / runs >= MIN_CATCH_SHARE)
  if (clean.count > 0) {
    print(`False alarms: ${clean.alarms} of ${clean.count} (${clean.alarms / clean.count <= MAX_FALSE_ALARM_SHARE ? 'within' : 'MORE than'} 1 in 20).`)
  }
  print(smallest
    ? `Smallest regression caught at least 19 times in 20: +${smallest.level} % ${gate.unit.replace('/req', ' per request')} in ${TAXED}.`
    : 'No level tried was caught 19 times in 20: try larger --levels.')
}

// Each gate's command and set-up (the arguments every run gets, fixed's clean cost). Reading a
// result and taxing fixed are the meter's calibration (bench/meters/).
const GATES = {
  ci: {
    script: [path.join(__dirname, '..'), '--mode', 'ci'],
    async setUp ({ extra, dir, print }) {
      const baselineFile = path.join(dir, 'baseline.json')
      const baseline = await gateRun(this, [...extra, ...(this.cleanTax ?? []), '--json', baselineFile], baselineFile)
      const cleanCost = this.costOf(baseline.result)
      print(`baseline: ${TAXED} ${this.describeBaseline(baseline.result, cleanCost)} (${baseline.seconds.toFixed(0)} s)`)
      return { args: [...extra, '--baseline', baselineFile], cleanCost }
    }
  },
  compare: {
    script: [path.join(__dirname, '..', 'compare'), '--base', 'HEAD'],
    async setUp ({ extra }) {
      // Measured beside its base, fixed's cost changes: it comes from the clean runs' base sides.
      return { args: extra, cleanCost: null }
    }
  }
}

function gateOf (name, meter) {
  const { unit, tax, gates } = meter.calibration
  return { ...GATES[name], ...gates[name](TAXED), unit, tax: (amount) => tax(TAXED, amount) }
}

// `count` runs of the gate: the alarms, the other failures and the taxed target's median change
// (against the clean cost for ci, against each run's own base side for compare).
async function series (label, count, args, { gate, dir, print, cleanCost }) {
  let alarms = 0
  let otherFailures = 0
  const changes = []
  const baseCosts = []
  for (let i = 1; i <= count; i++) {
    const file = path.join(dir, 'run.json')
    const { result, seconds } = await gateRun(gate, [...args, '--json', file], file)
    fs.rmSync(file) // the next run writes its own; the baseline (ci) stays
    const run = gate.readRun(result)
    if (run.alarm) alarms++
    if (!run.alarm && result.failures?.length) otherFailures++
    changes.push(gate.baseCostOf ? run.change : gate.costOf(result) / cleanCost - 1)
    if (gate.baseCostOf) baseCosts.push(gate.baseCostOf(result))
    print(`  ${label.padEnd(9)} run ${String(i).padStart(2)}/${count}: ${run.what} ` +
      `(${signedPercent(run.change)}, p = ${run.pValue.toPrecision(2)}) ${run.alarm ? 'ALARM' : 'quiet'}  ${seconds.toFixed(0)} s`)
  }
  return { alarms, otherFailures, measuredChange: changes.length ? median(changes) : null, baseCosts }
}

// The gate's command in a process of its own: its --json result and the seconds it took. Its exit
// code is not the verdict: the result says which check failed.
function gateRun (gate, args, jsonFile) {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...gate.script, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: 'true' } })
    let stderr = ''
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 2 || !fs.existsSync(jsonFile)) return reject(new Error(`${gate.script.join(' ')} ${args.join(' ')} exited ${code}:\n${stderr}`))
      const result = JSON.parse(fs.readFileSync(jsonFile, 'utf8'))
      resolve({ result, seconds: (Date.now() - started) / 1000 })
    })
  })
}

const command = { name: 'bench:calibrate', usage: USAGE, main }

module.exports = { command, gateRun, series }

if (require.main === module) runAsProcess(command)
