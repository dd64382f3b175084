'use strict'

// `node bench [options]` (npm start, npm run bench, npm run bench:ci): the
// command over the rooms beside it: options.js reads the command line,
// measure/ runs the targets, judge/ decides what the figures mean, print/
// writes them. Exit codes: 0 all held, 1 a goal or check failed (an
// instruction count against --baseline included), 2 bad options, 3 a
// stored instruction baseline that cannot be judged here (counted on
// another Node, valgrind, C library or CPU): one line says which, and
// nothing runs.

const fs = require('node:fs')
const path = require('node:path')
const { runAsProcess } = require('../tooling/command')
const { writeJson, readJson } = require('../tooling/json-file')
const { parseOptions, USAGE } = require('./options')
const { runComparison } = require('./measure/rounds')
const { describeMachineAtStart, describeVersions } = require('./measure/machine')
const { evaluateRun } = require('./judge/evaluate')
const { judgeInstructions, checkInstructionBaseline, CannotJudgeHere } = require('./judge/instructions')
const { countTargets, checkMeter, describeMeter } = require('./measure/instructions')
const { describeCountingMachine } = require('./measure/meter-context')
const { renderCounts, renderChanges, renderCountLine } = require('./print/instructions')
const { ROOT } = require('../tooling/repo')
const { UsageError } = require('../tooling/command')
const text = require('./print/text')
const { renderMarkdown } = require('./print/markdown')
const { toBencherMetricFormat, toGithubBenchmark } = require('./print/ci-formats')
const { renderHtml } = require('./print/html/page')

// Exit code of a baseline that cannot be judged here.
const CANNOT_JUDGE_HERE = 3

async function main (argv, { stdout, stderr }) {
  const options = parseOptions(argv)
  const counting = options.meter === 'instructions'
  // Before anything runs: the meter is there, the baseline was counted
  // where this run counts.
  const meter = counting ? { ...describeMeter(checkMeter().valgrind, options.protocol), ...describeCountingMachine() } : null
  let baseline = null
  try {
    baseline = options.baseline ? readBaseline(options.baseline, meter) : null
  } catch (err) {
    if (!(err instanceof CannotJudgeHere)) throw err
    stderr.write(`bench: cannot judge against ${options.baseline}: ${err.message}; count a baseline here ` +
      '(npm run bench:ci -- --meter instructions --json FILE) or use bench:compare, which counts its base beside the change\n')
    return CANNOT_JUDGE_HERE
  }
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
  // With the instruction meter, a baseline gates the counts, not the CPU
  // ratios; without it, the CPU ratios against it are reported, never a
  // failure (evaluateRun's baselineReport says why).
  const { enforced, failures, unenforced, ...evaluation } = evaluateRun(measured, { mode: options.mode, baseline: counting ? null : baseline, alpha: options.alpha })
  const results = { mode: options.mode, alpha: options.alpha, ...measured, ...evaluation, failures }
  if (counting) {
    stdout.write('\n')
    results.instructions = await countAndJudge(options, { meter, baseline, stdout, width: nameWidth })
    failures.push(...results.instructions.failures)
  }

  stdout.write('\n' + text.renderTable(results.summaries) + '\n\n')
  stdout.write(text.renderRatios(results.ratios, results.baseline) + '\n\n')
  stdout.write(text.renderChart(results.runs, protocol.targets) + '\n\n')
  if (results.baselineReport) stdout.write(text.renderBaselineReport(results.baselineReport) + '\n\n')
  if (results.warnings.length > 0) stdout.write(`Note:\n${results.warnings.map((w) => `  - ${w}`).join('\n')}\n\n`)
  if (counting) {
    const cpu = Object.fromEntries(results.summaries.map((s) => [s.target, s.cpuMicrosPerRequest]))
    stdout.write((baseline ? renderChanges(results.instructions, withBaselineCpu(cpu, baseline), ['baseline', 'now']) : renderCounts(results.instructions, cpu)) + '\n\n')
  }

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

// --baseline FILE: an earlier --json result, with every ratio's pairs;
// with the instruction meter (`meter`), one whose counts this run can be
// compared with.
function readBaseline (file, meter) {
  const baseline = readJson(file, {
    what: `the baseline ${file}`,
    isWanted: (parsed) => Boolean(parsed) && Array.isArray(parsed.ratios) && parsed.ratios.every((r) => Array.isArray(r.pairs)),
    notWanted: 'is not a --json result of this benchmark (no ratios with their rounds\' pairs)'
  })
  if (meter === null) return baseline
  if (!baseline.instructions?.counts) throw new UsageError(`the baseline ${file} has no instruction counts: make it with --meter instructions --json FILE`)
  baseline.instructionNotes = checkInstructionBaseline(baseline.instructions.meter ?? {}, meter)
  return baseline
}

// The instruction counts of the run's instruction targets and, with a
// baseline, their verdict against its counts: { meter, counts, tax,
// notes, and judgeInstructions's alphaPerTarget, comparisons, failures }.
async function countAndJudge (options, { meter, baseline, stdout, width }) {
  const targets = options.instructionTargets
  const counts = (await countTargets(targets, options.targets, {
    trees: { head: ROOT },
    taxes: options.instructionTax,
    taxedSide: 'head',
    protocol: meter.protocol,
    onCount: ({ target, windows, seconds }) => stdout.write(renderCountLine({ target, windows, seconds }, width) + '\n')
  })).head
  const result = { meter, counts, tax: options.instructionTax, notes: baseline?.instructionNotes ?? [], alpha: options.alpha, failures: [] }
  if (!baseline) return result
  const stored = baseline.instructions.counts
  const missing = targets.filter((target) => !stored[target])
  if (missing.length > 0) throw new UsageError(`the baseline has no instruction count of ${missing.join(', ')}`)
  const windowsOf = (side) => Object.fromEntries(targets.map((target) => [target, side[target].windows]))
  return { ...result, ...judgeInstructions({ base: windowsOf(stored), head: windowsOf(counts) }, { targets, alpha: options.alpha, maxRegression: options.maxRegression }) }
}

// CPU per request of the baseline (its summaries) and of this run, by target.
function withBaselineCpu (cpu, baseline) {
  const stored = Object.fromEntries(baseline.summaries.map((s) => [s.target, s.cpuMicrosPerRequest]))
  return Object.fromEntries(Object.entries(cpu).map(([target, head]) => [target, { base: stored[target] ?? null, head }]))
}

const command = { name: 'bench', usage: USAGE, main }

module.exports = { command }

if (require.main === module) runAsProcess(command)
