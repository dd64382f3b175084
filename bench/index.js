'use strict'

// `node bench [options]`: the command over bench/run.js (measuring) and
// bench/report.js (printing). Exit codes: 0 all held, 1 a goal or check
// failed, 2 bad options.

const fs = require('node:fs')
const { parseOptions, UsageError, USAGE } = require('./options')
const { RATIOS, MODES, TARGETS } = require('./goals')
const { runComparison, describeMachine } = require('./run')
const { evaluateRatios, compareWithBaseline, summarizeTargets, checkRequirements } = require('./stats')
const report = require('./report')

async function main (argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  let options, baseline
  try {
    options = parseOptions(argv)
    if (options.help) {
      stdout.write(USAGE)
      return 0
    }
    baseline = options.baseline && readBaseline(options.baseline)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    stderr.write(`bench: ${err.message}\nRun "node bench --help" for the options.\n`)
    return 2
  }

  const mode = MODES[options.mode]
  const { protocol } = options
  const progress = Boolean(stderr.isTTY) && !process.env.CI
  stdout.write(report.renderProtocol({ mode: options.mode, protocol, machine: describeMachine() }) + '\n\n')

  const nameWidth = Math.max(...protocol.targets.map((t) => t.length))
  const measured = await runComparison(protocol, {
    progress,
    onRun: (run) => stdout.write(`  round ${run.round}/${protocol.rounds}  ${run.target.padEnd(nameWidth)} ` +
      `${Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(8)} req/s\n`)
  })

  const conditionalTargets = protocol.targets.filter((t) => TARGETS[t].conditional)
  const results = {
    mode: options.mode,
    ...measured,
    summaries: summarizeTargets(measured.runs, protocol.targets),
    ratios: evaluateRatios(measured.runs, RATIOS, mode.goals),
    failedChecks: checkRequirements(measured.runs, mode, conditionalTargets)
  }
  results.baseline = baseline ? compareWithBaseline(results.ratios, baseline.ratios, options.tolerance) : []

  stdout.write('\n' + report.renderTable(results.summaries) + '\n\n')
  stdout.write(report.renderRatios(results.ratios, results.baseline) + '\n\n')
  stdout.write(report.renderChart(results.runs, protocol.targets) + '\n\n')

  if (options.json) fs.writeFileSync(options.json, JSON.stringify(results, null, 2) + '\n')
  if (options.markdown) fs.writeFileSync(options.markdown, report.renderMarkdown(results))

  const missedGoals = results.ratios.filter((r) => r.holds === false).map((r) =>
    `${r.name} is ${r.value.toPrecision(4)}, goal ${r.better === 'lower' ? '<=' : '>='} ${r.goal}`)
  const failures = [
    ...(mode.enforce ? [...missedGoals, ...results.failedChecks] : []),
    ...results.baseline.filter((b) => !b.holds).map((b) =>
      `${b.name} moved ${(b.change * 100).toFixed(1)} % from the baseline's ${b.baseline.toFixed(2)} (tolerance ${options.tolerance * 100} %)`)
  ]
  if (!mode.enforce && missedGoals.length + results.failedChecks.length > 0) {
    stdout.write(`(mode ${options.mode} reports goals without enforcing them: run "npm run bench" for the checked comparison)\n`)
  }
  if (failures.length > 0) {
    stderr.write(`bench: FAILED\n${failures.map((f) => `  - ${f}`).join('\n')}\n`)
    return 1
  }
  stdout.write(`bench: ${mode.enforce ? 'every goal holds' : 'done'}\n`)
  return 0
}

function readBaseline (file) {
  let parsed
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new UsageError(`cannot read the baseline ${file}: ${err.message}`)
  }
  if (!parsed || !Array.isArray(parsed.ratios)) throw new UsageError(`${file} is not a --json result of this benchmark (no ratios)`)
  return parsed
}

module.exports = { main }

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code },
    (err) => {
      console.error(`bench: ${err.stack || err.message}`)
      process.exitCode = 1
    }
  )
}
