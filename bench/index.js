'use strict'

// `node bench [options]` (npm start, npm run bench, npm run bench:ci): the
// command over the rooms beside it: options.js reads the command line,
// measure/ runs the targets, judge/ decides what the figures mean, print/
// writes them. Exit codes: 0 all held, 1 a goal or check failed, 2 bad
// options.

const fs = require('node:fs')
const path = require('node:path')
const { runAsProcess } = require('../tooling/command')
const { writeJson, readJson } = require('../tooling/json-file')
const { parseOptions, USAGE } = require('./options')
const { runComparison } = require('./measure/rounds')
const { describeMachineAtStart, describeVersions } = require('./measure/machine')
const { evaluateRun } = require('./judge/evaluate')
const text = require('./print/text')
const { renderMarkdown } = require('./print/markdown')
const { toBencherMetricFormat, toGithubBenchmark } = require('./print/ci-formats')
const { renderHtml } = require('./print/html/page')

async function main (argv, { stdout, stderr }) {
  const options = parseOptions(argv)
  const baseline = options.baseline ? readBaseline(options.baseline) : null
  const { protocol } = options
  const progress = Boolean(stderr.isTTY) && !process.env.CI
  const machine = await describeMachineAtStart()
  stdout.write(text.renderProtocol({ mode: options.mode, protocol, targets: options.targets, machine, versions: describeVersions() }) + '\n\n')

  const nameWidth = Math.max(...protocol.targets.map((t) => t.length))
  const measured = await runComparison(protocol, {
    targets: options.targets,
    cpuTax: options.cpuTax,
    progress,
    machine,
    onRun: (run) => stdout.write(`  round ${run.round}/${protocol.rounds}  ${run.target.padEnd(nameWidth)} ` +
      `${Math.round(run.requestsPerSecond).toLocaleString('en-US').padStart(8)} req/s\n`)
  })
  const { enforced, failures, unenforced, ...evaluation } = evaluateRun(measured, { mode: options.mode, baseline, alpha: options.alpha })
  const results = { mode: options.mode, alpha: options.alpha, ...measured, ...evaluation, failures }

  stdout.write('\n' + text.renderTable(results.summaries) + '\n\n')
  stdout.write(text.renderRatios(results.ratios, results.baseline) + '\n\n')
  stdout.write(text.renderChart(results.runs, protocol.targets) + '\n\n')
  if (results.warnings.length > 0) stdout.write(`Note:\n${results.warnings.map((w) => `  - ${w}`).join('\n')}\n\n`)

  if (options.json) writeJson(options.json, results)
  if (options.markdown) fs.writeFileSync(options.markdown, renderMarkdown(results))
  if (options.bencherJson) writeJson(options.bencherJson, toBencherMetricFormat(results))
  if (options.githubBenchmarkJson) writeJson(options.githubBenchmarkJson, toGithubBenchmark(results))
  if (options.html) {
    fs.mkdirSync(path.dirname(options.html), { recursive: true })
    fs.writeFileSync(options.html, renderHtml(results))
  }
  // The page's path is the run's last line, whatever the verdict.
  const reportLine = options.html ? `report: ${path.relative(process.cwd(), options.html)}\n` : ''

  if (unenforced.length > 0) {
    stdout.write(`(mode ${options.mode} reports goals without enforcing them: run "npm run bench" for the checked comparison)\n`)
  }
  if (failures.length > 0) {
    stderr.write(`bench: FAILED\n${failures.map((f) => `  - ${f}`).join('\n')}\n`)
    stdout.write(reportLine)
    return 1
  }
  stdout.write(`bench: ${enforced ? 'every goal holds' : 'done'}\n${reportLine}`)
  return 0
}

// --baseline FILE: an earlier --json result, with every ratio's pairs.
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
