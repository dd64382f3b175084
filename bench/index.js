'use strict'

// `node bench [options]` (npm start, npm run bench, npm run bench:ci): the command over the rooms
// beside it. options.js reads the command line, measure/ runs the targets, judge/ decides what the
// figures mean and print/ writes them.

const fs = require('node:fs')
const path = require('node:path')
const { runAsProcess } = require('../tooling/command')
const { writeJson, readJson } = require('../tooling/json-file')
const { parseOptions, USAGE } = require('./options')
const { runComparison } = require('./measure/rounds')
const { describeMachineAtStart, describeVersions } = require('./measure/machine')
const { evaluateRun } = require('./judge/evaluate')
const { CannotJudgeHere } = require('./judge/instructions')
const { ROOT, shownPath } = require('../tooling/repo')
const text = require('./print/text')
const { renderMarkdown } = require('./print/markdown')
const { toBencherMetricFormat, toGithubBenchmark } = require('./print/ci-formats')
const { renderHtml } = require('./print/html/page')
const { terminalProgress, countingOnProgress } = require('./print/progress')

const CANNOT_JUDGE_HERE = 3

async function main (argv, { stdout, stderr }) {
  const options = parseOptions(argv)
  const { protocol } = options
  // Before anything runs: the meter is there, and the baseline was counted where this run counts
  // (recorded, since this run's --json may be a baseline).
  const meter = options.meter.setUp(protocol, { where: true })
  let baseline = null
  try {
    baseline = options.baseline ? meter.checkBaseline(readBaseline(options.baseline), options.baseline) : null
  } catch (err) {
    if (!(err instanceof CannotJudgeHere)) throw err
    stderr.write(`bench: cannot judge against ${options.baseline}: ${err.message}; count a baseline here ` +
      '(npm run bench:ci -- --meter instructions --json FILE) or use bench:compare, which counts its base beside the change\n')
    return CANNOT_JUDGE_HERE
  }
  const machine = await describeMachineAtStart()
  stdout.write(text.renderProtocol({ mode: options.mode, protocol, targets: options.targets, machine, versions: describeVersions() }) + '\n\n')

  const width = Math.max(...protocol.targets.map((t) => t.length))
  const measured = await measureRounds(options, { machine, stdout, stderr, width })
  // A meter that gates on its own count judges the baseline's count; CPU ratios against it are a report.
  const { enforced, failures, unenforced, ...evaluation } = evaluateRun(measured, { mode: options.mode, baseline: meter.cpuBaseline(baseline), alpha: options.alpha })
  const results = { mode: options.mode, alpha: options.alpha, ...measured, ...evaluation, failures }
  const counted = await meter.count(countJob(options, { baseline, print: (line) => stdout.write(line + '\n'), width }))
  Object.assign(results, counted)
  // Against a stored run the CPU rounds gate nothing: only the meter's own gate adds failures.
  failures.push(...meter.gate([], counted))

  stdout.write('\n' + [...text.renderResults(results), ...meter.renderCounts(results, baseline)].map((block) => block + '\n\n').join(''))
  writeOutputs(results, options)
  // The verdict in words, then the figures; the page's path is the run's last line, whatever the verdict.
  stdout.write(text.renderVerdict(results) + '\n')
  if (unenforced.length > 0) {
    stdout.write(`Mode ${options.mode} shows its goals without enforcing them: npm run bench enforces them.\n`)
  }
  const reportLine = options.html ? `report: ${shownPath(process.cwd(), options.html)}\n` : ''
  if (failures.length > 0) {
    stderr.write(`bench: FAILED\n${failures.map((f) => `  - ${f}`).join('\n')}\n`)
    stdout.write(reportLine)
    return 1
  }
  stdout.write(reportLine)
  return 0
}

async function measureRounds ({ protocol, targets, cpuTax }, { machine, stdout, stderr, width }) {
  return countingOnProgress(terminalProgress(stderr), protocol.rounds * protocol.targets.length, 'runs', (step) => runComparison(protocol, {
    targets,
    cpuTax,
    machine,
    onRun: (run) => step(() => stdout.write(renderRoundLine(run, protocol, width)))
  }))
}

// What the meter counts beside the rounds: the run's counted targets from this tree, taxed as asked,
// judged against the baseline's counts with the run's alpha and allowance.
function countJob (options, { baseline, print, width }) {
  return { targets: options.instructionTargets, definitions: options.targets, trees: { head: ROOT }, taxes: options.instructionTax, alpha: options.alpha, maxRegression: options.maxRegression, baseline, print, width }
}

function renderRoundLine (run, protocol, width) {
  return `  round ${run.round}/${protocol.rounds}  ${run.target.padEnd(width)} ` +
    `${Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(8)} req/s\n`
}

function writeOutputs (results, options) {
  if (options.json) writeJson(options.json, results)
  if (options.markdown) fs.writeFileSync(options.markdown, renderMarkdown(results))
  if (options.bencherJson) writeJson(options.bencherJson, toBencherMetricFormat(results))
  if (options.githubBenchmarkJson) writeJson(options.githubBenchmarkJson, toGithubBenchmark(results))
  if (options.html) {
    fs.mkdirSync(path.dirname(options.html), { recursive: true })
    fs.writeFileSync(options.html, renderHtml(results))
  }
}

// --baseline FILE: an earlier --json result with every ratio's pairs; the meter checks the rest.
function readBaseline (file) {
  return readJson(file, {
    what: `the baseline ${file}`,
    isWanted: (parsed) => Boolean(parsed) && Array.isArray(parsed.ratios) && parsed.ratios.every((r) => Array.isArray(r.pairs)),
    notWanted: 'is not a --json result of this benchmark (no ratios with their rounds\' pairs)'
  })
}

const command = { name: 'bench', usage: USAGE, main }

module.exports = { command }

if (require.main === module) runAsProcess(command)
