'use strict'

// `npm run bench:compare -- [--base REF] [options]`: gate a change against
// its base commit in one run, with no stored baseline (bench/measure/trees.js,
// paired-run.js, verdict.js, print.js). Exit codes: 0 no regression beyond
// the allowance, 1 a regression, 2 bad input.

const fs = require('node:fs')
const path = require('node:path')
const { runAsProcess, parseCommandLine, numberOption, UsageError } = require('../../tooling/command')
const { ROOT, pathInside } = require('../../tooling/repo')
const { describeHead } = require('../../tooling/git')
const { signedPercent } = require('../../tooling/number-text')
const { writeJson } = require('../../tooling/json-file')
const { TARGETS, targetsIn } = require('../protocol/targets')
const { PROTOCOL_OPTIONS, parseLoad, parseAlpha, checkConditionalWindow, parseTargets, parseCpuTax, parseInstructionTax, parseUserTarget, parseOutputs } = require('../protocol/options')
const { parseMeter, METERS: { instructions: INSTRUCTION_METER } } = require('../meters')
const { describeMachineAtStart, describeVersions } = require('../measure/machine')
const { MAX_SIGN_FLIP_ROUNDS } = require('../judge/stats')
const { renderMachine } = require('../print/machine')
const { terminalProgress, countingOnProgress } = require('../print/progress')
const { resolveBase, checkOutBase } = require('../measure/trees')
const { runPairs } = require('./paired-run')
const { judgePairs } = require('./verdict')
const render = require('./print')

const DEFAULTS = {
  targets: targetsIn('compare'),
  connections: 50,
  warmup: 0.75,
  duration: 2,
  warmupRequests: 200,
  requests: 100,
  rounds: 12,
  maxRegression: 5,
  alpha: 0.05
}

const { protocol: INSTRUCTION_PROTOCOL, compare: INSTRUCTION_COMPARE_DEFAULTS } = INSTRUCTION_METER.defaults

const USAGE = `Usage: npm run bench:compare -- [--base REF] [options]

Measures the base commit and the working tree (the head) side by side in
one run and fails when the head's CPU per request regressed. The base is
checked out into a temporary git worktree outside the repository (removed
afterwards) and installed from its own lockfile (the head's node_modules
when the lockfiles are the same; else npm ci, kept in .cache/compare/).
Each round starts every target from both trees in fresh processes and
loads base and head at the same time, so the machine's ups and downs fall
on both; which side is loaded first alternates ABBA.

Options:
  --base REF            the commit to compare with (default: the merge base
                        of HEAD with the default branch, or HEAD~1 when HEAD
                        is on it)
  --targets LIST        comma-separated, from: ${Object.keys(TARGETS).join(', ')}
                        (default: ${DEFAULTS.targets.join(', ')})
  --target NAME=PATH    also compare a server file or folder of this
                        repository, which must exist in both trees; repeatable
  --rounds N            paired rounds (default ${DEFAULTS.rounds}, at most ${MAX_SIGN_FLIP_ROUNDS})
  --warmup SECONDS      load before measuring, per round (default ${DEFAULTS.warmup})
  --duration SECONDS    measured load per round (default ${DEFAULTS.duration})
  --connections N       autocannon connections on each side (default ${DEFAULTS.connections})
  --warmup-requests N   slow's warm-up, a count of requests (default ${DEFAULTS.warmupRequests})
  --requests N          slow's measured requests (default ${DEFAULTS.requests})
  --max-regression PCT  the allowance: fail when a regression this large
                        cannot be ruled out (default ${DEFAULTS.maxRegression})
  --alpha P             the false-alarm rate of the whole comparison, split
                        over the targets (default ${DEFAULTS.alpha})
  --markdown FILE       write the verdict and table as Markdown (a pull
                        request comment, or "$GITHUB_STEP_SUMMARY")
  --json FILE           write every round's figures, the verdicts, the trees
  --bencher-json FILE   the head's figures and the change, Bencher Metric Format
  --github-benchmark-json FILE
                        the same for github-action-benchmark (smaller is better)
  --cpu-tax TARGET=US   add US microseconds of busy CPU to each request of the
                        head's TARGET (a regression made to order, to calibrate)
  --meter instructions  gate on instructions per request, counted under
                        valgrind (Linux), not on CPU time: base and head
                        each in a fresh process, ${INSTRUCTION_PROTOCOL.windows} windows of ${INSTRUCTION_PROTOCOL.windowRequests} requests after
                        ${INSTRUCTION_PROTOCOL.warmupRequests + INSTRUCTION_PROTOCOL.settleRequests}; --max-regression then defaults to ${INSTRUCTION_COMPARE_DEFAULTS.maxRegression}, and the
                        CPU rounds (default ${INSTRUCTION_COMPARE_DEFAULTS.rounds}) are reported beside it, not gated
  --instruction-tax TARGET=N
                        with --meter instructions: add N instructions of
                        work to each request of the head's TARGET (to calibrate)
  --help                this text

By default only CPU per request gates (the server's own CPU time over its
responses); req/s and p99 latency are reported beside it. Exit 0: no
regression beyond the allowance; 1: a regression; 2: bad input, or
--meter instructions without valgrind.
`

// `meter` is a bench/meters/ module, whose defaults replace the command's.
function parseOptions (argv) {
  const { values } = parseCommandLine(argv, {
    ...PROTOCOL_OPTIONS,
    base: { type: 'string' },
    'max-regression': { type: 'string' }
  })
  const builtIn = values.targets === undefined ? DEFAULTS.targets : parseTargets(values.targets)
  const definitions = { ...TARGETS, ...Object.fromEntries(values.target.map(parseRepoTarget)) }
  const targets = [...builtIn, ...values.target.map((text) => text.split('=')[0])]
  if (new Set(targets).size !== targets.length) throw new UsageError('a target is named twice')

  const alpha = parseAlpha(values.alpha, DEFAULTS.alpha)
  const meter = parseMeter(values.meter)
  const defaults = { ...DEFAULTS, ...meter.defaults.compare }
  const { rounds, warmup, duration, connections, warmupRequests, requests } = parseLoad(values, defaults, { rounds: { min: 2, max: MAX_SIGN_FLIP_ROUNDS } })
  const protocol = { targets, rounds, warmup, duration, connections, warmupRequests, requests }
  // The exact test's smallest p-value is 1 / 2^rounds: it must fall below
  // each target's share of alpha, or no change could ever be shown.
  const alphaPerTarget = alpha / targets.length
  if (meter.gatesOnCpu && 2 ** -protocol.rounds >= alphaPerTarget) {
    const needed = Math.floor(Math.log2(1 / alphaPerTarget)) + 1
    throw new UsageError(`--rounds ${protocol.rounds} cannot show a change at alpha ${alpha} over ${targets.length} target(s): ` +
      `the exact test needs at least ${needed} rounds`)
  }
  checkConditionalWindow(targets, definitions, protocol)
  const cpuTax = Object.fromEntries(values['cpu-tax'].map((text) => parseCpuTax(text, targets)))
  const instructionTax = Object.fromEntries(values['instruction-tax'].map((text) => parseInstructionTax(text, targets, meter)))
  return {
    base: values.base,
    protocol,
    definitions,
    cpuTax,
    meter,
    instructionTax,
    alpha,
    maxRegression: numberOption('max-regression', values['max-regression'], defaults.maxRegression, { min: 0 }) / 100,
    outputs: parseOutputs(values)
  }
}

// NAME=PATH, PATH inside this repository (on real paths: a symbolic link
// may lead to either), so that the base has it at the same place.
function parseRepoTarget (text) {
  const [name, definition] = parseUserTarget(text)
  const relative = pathInside(path.resolve(ROOT, definition.entry))
  if (relative === null) {
    throw new UsageError(`--target ${name}: ${text.slice(name.length + 1)} is outside the repository, so the base cannot have it`)
  }
  return [name, { ...definition, entry: relative }]
}

async function main (argv, { stdout, stderr }) {
  const options = parseOptions(argv)
  // Before anything runs: the meter is there.
  const meter = options.meter.setUp(options.protocol)
  const print = (text = '') => stdout.write(text + '\n')
  const head = describeHead()
  const baseCommit = resolveBase(options.base)
  print(`bench:compare: base ${baseCommit.commit.slice(0, 10)} against head ${head.commit.slice(0, 10)}${head.dirty ? ' + uncommitted changes' : ''}`)
  // Removed in the finally, or by a Ctrl-C, a CI cancel or a crash (checkOutBase's guard).
  const checkout = checkOutBase(baseCommit.commit, { log: (line) => print(`  ${line}`) })
  try {
    const base = { ...baseCommit, install: checkout.install }
    const result = await compareTrees(options, meter, { base, head, trees: { base: checkout.dir, head: ROOT }, print, stderr })
    writeOutputs(result, options.outputs)
    if (result.failures.length > 0) {
      stderr.write(render.renderVerdict(result) + '\n')
      return 1
    }
    print(render.renderVerdict(result))
    return 0
  } finally {
    checkout.remove()
  }
}

async function compareTrees (options, meter, { base, head, trees, print, stderr }) {
  const { protocol, definitions } = options
  for (const target of protocol.targets) {
    const entry = definitions[target].entry
    if (!fs.existsSync(path.resolve(trees.base, entry))) {
      throw new UsageError(`target ${target}: ${entry} does not exist at the base (${base.commit.slice(0, 10)})`)
    }
  }
  const machine = await describeMachineAtStart()
  const versions = describeVersions()
  print(render.renderTrees({ base, head }))
  print(render.renderProtocol(protocol, { leaking: protocol.targets.filter((t) => definitions[t].leaking) }))
  print(renderMachine(machine, versions))
  print()

  const width = Math.max(...protocol.targets.map((t) => t.length))
  const started = new Date().toISOString()
  const pairs = await runBothSides(options, { trees, print, progress: terminalProgress(stderr), width })
  const { alpha, maxRegression } = options
  const counted = await meter.count({ targets: protocol.targets, definitions, trees, taxes: options.instructionTax, alpha, maxRegression, print, width })
  const verdict = judgePairs(pairs, { targets: protocol.targets, alpha, maxRegression })
  const finished = new Date().toISOString()
  const result = { base, head, protocol, cpuTax: options.cpuTax, alpha, maxRegression, machine, versions, started, finished, pairs, ...verdict, failures: meter.gate(verdict.failures, counted), ...counted }
  print()
  for (const line of meter.renderComparison(result, render.cpuBySide(result))) print(line)
  print(render.renderTable(result))
  print()
  return result
}

// A base that does not start is bad input (exit 2), not a regression.
async function runBothSides ({ protocol, definitions, cpuTax }, { trees, print, progress, width }) {
  try {
    return await countingOnProgress(progress, protocol.rounds * protocol.targets.length, 'pairs', (step) => runPairs(protocol, {
      definitions,
      trees,
      cpuTax,
      onRound: (pair) => step(() => print(`  round ${pair.round}/${protocol.rounds}  ${pair.target.padEnd(width)}  CPU µs/req ` +
        `base ${pair.base.cpuMicrosPerRequest.toFixed(2).padStart(8)}  head ${pair.head.cpuMicrosPerRequest.toFixed(2).padStart(8)}  ` +
        `(${signedPercent(pair.head.cpuMicrosPerRequest / pair.base.cpuMicrosPerRequest - 1)}, ${pair.first} first)`))
    }))
  } catch (err) {
    if (err.side === 'base') throw new UsageError(err.message)
    throw err
  }
}

function writeOutputs (result, { markdown, json, bencherJson, githubBenchmarkJson }) {
  if (markdown) fs.writeFileSync(markdown, render.renderMarkdown(result))
  if (json) writeJson(json, result)
  if (bencherJson) writeJson(bencherJson, render.toBencherJson(result))
  if (githubBenchmarkJson) writeJson(githubBenchmarkJson, render.toGithubBenchmarkJson(result))
}

const command = { name: 'bench:compare', usage: USAGE, main }

module.exports = { command, parseOptions, DEFAULTS }

if (require.main === module) runAsProcess(command)
