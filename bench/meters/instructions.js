'use strict'

// The instruction meter (--meter instructions): the gate reads instructions per request, counted
// under valgrind. The CPU rounds still run; their figures are reported, not gated.

const { UsageError } = require('../../tooling/command')
const { signedPercent } = require('../../tooling/number-text')
const { countTargets, describeMeter, DEFAULTS: PROTOCOL } = require('../measure/instructions')
const { checkMeter } = require('../measure/instruction-tools')
const { describeCountingMachine } = require('../measure/meter-context')
const { judgeInstructions, checkInstructionBaseline, countOf, INSTRUCTION_DEFAULTS } = require('../judge/instructions')
const { renderCounts, renderChanges, renderCountLine } = require('../print/instructions')

const defaults = {
  protocol: PROTOCOL,
  bench: { alpha: INSTRUCTION_DEFAULTS.alpha },
  // bench:compare: fewer CPU rounds, since they gate nothing; the allowance in percent.
  compare: { rounds: 2, maxRegression: INSTRUCTION_DEFAULTS.maxRegression * 100 }
}

// Checks before anything runs that valgrind, vgdb and libfaketime are here. With `where`, also
// records the C library and CPU, which a count stored and judged elsewhere needs.
function setUp (protocol, { where = false } = {}) {
  const meter = { ...describeMeter(checkMeter().valgrind, protocol), ...(where ? describeCountingMachine() : {}) }
  return {
    checkBaseline (baseline, file) {
      if (!baseline.instructions?.counts) throw new UsageError(`the baseline ${file} has no instruction counts: make it with --meter instructions --json FILE`)
      baseline.instructionNotes = checkInstructionBaseline(baseline.instructions.meter ?? {}, meter)
      return baseline
    },
    cpuBaseline: () => null,
    count: (job) => countAndJudge(meter, job),
    gate: (cpuFailures, counted) => counted.instructions.failures,
    renderCounts: renderRunCounts,
    renderComparison: (result, cpu) =>
      [renderChanges(result.instructions, cpu), '', `CPU per request over ${result.protocol.rounds} paired rounds, reported beside the count (not gated):`]
  }
}

// Counts `targets` in each of `trees` ({ head } or { base, head }) and judges the head against the
// base tree's counts or a stored `baseline`'s. Resolves to { instructions } for the result.
async function countAndJudge (meter, { targets, definitions, trees, taxes, alpha, maxRegression, baseline = null, print, width }) {
  const bothSides = trees.base !== undefined
  print('')
  const counts = await countTargets(targets, definitions, {
    trees,
    taxes,
    taxedSide: 'head',
    protocol: meter.protocol,
    onCount: (count) => print(renderCountLine(bothSides ? count : { ...count, side: undefined }, width))
  })
  const base = bothSides ? counts.base : baseline?.instructions.counts
  // node bench's result (one tree) has `failures` before the verdict, as its stored runs do.
  const result = { meter, counts: bothSides ? counts : counts.head, tax: taxes, notes: baseline?.instructionNotes ?? [], alpha, ...(bothSides ? {} : { failures: [] }) }
  if (!base) return { instructions: result }
  const missing = targets.filter((target) => !base[target])
  if (missing.length > 0) throw new UsageError(`the baseline has no instruction count of ${missing.join(', ')}`)
  const windowsOf = (side) => Object.fromEntries(targets.map((target) => [target, side[target].windows]))
  return { instructions: { ...result, ...judgeInstructions({ base: windowsOf(base), head: windowsOf(counts.head) }, { targets, alpha, maxRegression }) } }
}

function renderRunCounts (results, baseline) {
  const cpu = Object.fromEntries(results.summaries.map((s) => [s.target, s.cpuMicrosPerRequest]))
  if (!baseline) return [renderCounts(results.instructions, cpu)]
  const stored = Object.fromEntries(baseline.summaries.map((s) => [s.target, s.cpuMicrosPerRequest]))
  const both = Object.fromEntries(Object.entries(cpu).map(([target, head]) => [target, { base: stored[target] ?? null, head }]))
  return [renderChanges(results.instructions, both, ['baseline', 'now'])]
}

// For bench:calibrate: each gate takes the fewest CPU rounds it can, since they are only reported.
// The ci gate's baseline and clean runs load the tax's hook with no work (cleanTax): only the work differs.
const CPU_ROUNDS = { ci: 1, compare: 2 }
const tax = (target, instructions) => ['--instruction-tax', `${target}=${Math.round(instructions)}`]
const countOfTaxed = (counts, taxed) => countOf(counts[taxed].windows)
const readVerdict = (taxed) => (result) => {
  const { comparisons, failures } = result.instructions
  const fixed = comparisons.find((c) => c.target === taxed)
  const others = comparisons.filter((c) => c.regressed && c.target !== taxed).map((c) => `; ${c.target} ${c.verdict} (${signedPercent(c.change)})`)
  return {
    alarm: failures.length > 0,
    what: `${taxed} ${Math.round(fixed.base)} -> ${Math.round(fixed.head)} instructions, ${fixed.verdict}${others.join('')}`,
    change: fixed.change,
    pValue: fixed.pWorse
  }
}

const calibration = {
  unit: 'instructions/req',
  levels: '0.2,0.5,1',
  cpuRounds: CPU_ROUNDS,
  runArgs: (gate) => ['--meter', 'instructions', '--rounds', String(CPU_ROUNDS[gate])],
  tax,
  gates: {
    ci: (taxed) => ({
      cleanTax: tax(taxed, 0),
      describeBaseline: (result, cost) => `${Math.round(cost)} instructions/req`,
      readRun: readVerdict(taxed),
      costOf: (result) => countOfTaxed(result.instructions.counts, taxed)
    }),
    compare: (taxed) => ({
      readRun: readVerdict(taxed),
      costOf: (result) => countOfTaxed(result.instructions.counts.head, taxed),
      baseCostOf: (result) => countOfTaxed(result.instructions.counts.base, taxed)
    })
  }
}

module.exports = {
  name: 'instructions',
  // What it gates, in a verdict's words: "head costs more instructions a request".
  gates: 'instructions',
  defaults,
  gatesOnCpu: false,
  takesInstructionTax: true,
  targetsToCount: (candidates) => candidates,
  setUp,
  calibration
}
