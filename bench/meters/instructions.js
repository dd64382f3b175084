'use strict'

// The instruction meter (--meter instructions): a gate reads instructions
// per request, counted under valgrind (bench/measure/instructions.js),
// judged on each side's windows (bench/judge/instructions.js) and printed
// with CPU per request beside it (bench/print/instructions.js). The CPU
// rounds still run: their figures are reported, not gated. The same count
// and verdict serve node bench (against a stored run) and bench:compare
// (against the base tree, counted in the same run).
// bench/meters/index.js says what every meter holds.

const { UsageError } = require('../../tooling/command')
const { signedPercent } = require('../../tooling/number-text')
const { countTargets, describeMeter, DEFAULTS: PROTOCOL } = require('../measure/instructions')
const { checkMeter } = require('../measure/instruction-tools')
const { describeCountingMachine } = require('../measure/meter-context')
const { judgeInstructions, checkInstructionBaseline, countOf, INSTRUCTION_DEFAULTS } = require('../judge/instructions')
const { renderCounts, renderChanges, renderCountLine } = require('../print/instructions')

const defaults = {
  protocol: PROTOCOL,
  // node bench --baseline: the gate's false-alarm rate.
  bench: { alpha: INSTRUCTION_DEFAULTS.alpha },
  // bench:compare: the allowance (in percent), and the CPU rounds reported
  // beside the count: fewer, since they gate nothing.
  compare: { rounds: 2, maxRegression: INSTRUCTION_DEFAULTS.maxRegression * 100 }
}

/**
 * Set up for a run, before anything runs: valgrind, vgdb and libfaketime
 * are here (else a MeterUnavailable says what is missing) and what the
 * count depends on is described, for the `protocol` of the run (slow's
 * request counts); with `where`, also where it is counted (the C library
 * and the CPU), which a count that may be stored and judged elsewhere
 * needs (node bench's). Returns the meter of this run (below).
 */
function setUp (protocol, { where = false } = {}) {
  const meter = { ...describeMeter(checkMeter().valgrind, protocol), ...(where ? describeCountingMachine() : {}) }
  return {
    // A stored run (node bench --baseline) has counts made where this run counts.
    checkBaseline (baseline, file) {
      if (!baseline.instructions?.counts) throw new UsageError(`the baseline ${file} has no instruction counts: make it with --meter instructions --json FILE`)
      baseline.instructionNotes = checkInstructionBaseline(baseline.instructions.meter ?? {}, meter)
      return baseline
    },
    // The CPU ratios against a stored run are not judged: the count is.
    cpuBaseline: () => null,
    count: (job) => countAndJudge(meter, job),
    // The run fails on the count's verdict, not on the CPU rounds'.
    gate: (cpuFailures, counted) => counted.instructions.failures,
    renderCounts: renderRunCounts,
    renderComparison: (result, cpu) =>
      [renderChanges(result.instructions, cpu), '', `CPU per request over ${result.protocol.rounds} paired rounds, reported beside the count (not gated):`]
  }
}

/**
 * Count `targets` (names in `definitions`) from each tree of `trees` ({
 * head } or { base, head }; `taxes` on the head's side), printing each
 * count's line through `print` (`width`: the targets' names' column), and
 * judge the head against the base: the base tree's counts, or a stored
 * run's (`baseline`, checked by checkBaseline). Resolves to what it adds to
 * the result: { instructions: { meter, counts (by side when both trees were
 * counted, else the head's), tax, notes, alpha, and judgeInstructions's
 * alphaPerTarget, maxRegression, comparisons, failures (none without a
 * base) } }.
 */
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
  // node bench's result (one tree) has its failures before the verdict, as
  // its stored runs always had.
  const result = { meter, counts: bothSides ? counts : counts.head, tax: taxes, notes: baseline?.instructionNotes ?? [], alpha, ...(bothSides ? {} : { failures: [] }) }
  if (!base) return { instructions: result }
  const missing = targets.filter((target) => !base[target])
  if (missing.length > 0) throw new UsageError(`the baseline has no instruction count of ${missing.join(', ')}`)
  const windowsOf = (side) => Object.fromEntries(targets.map((target) => [target, side[target].windows]))
  return { instructions: { ...result, ...judgeInstructions({ base: windowsOf(base), head: windowsOf(counts.head) }, { targets, alpha, maxRegression }) } }
}

// node bench's table of the counts, CPU per request beside them: against
// a stored run, the change and its verdict.
function renderRunCounts (results, baseline) {
  const cpu = Object.fromEntries(results.summaries.map((s) => [s.target, s.cpuMicrosPerRequest]))
  if (!baseline) return [renderCounts(results.instructions, cpu)]
  const stored = Object.fromEntries(baseline.summaries.map((s) => [s.target, s.cpuMicrosPerRequest]))
  const both = Object.fromEntries(Object.entries(cpu).map(([target, head]) => [target, { base: stored[target] ?? null, head }]))
  return [renderChanges(results.instructions, both, ['baseline', 'now'])]
}

/**
 * How bench:calibrate taxes this meter (`tax(target, instructions)`: work
 * added to each request of `target`) and reads a gate's --json result, for
 * the taxed target `taxed` (cpu.js says what each reader answers). The CPU
 * rounds are only reported: each gate takes the fewest it can
 * (`cpuRounds`). The ci gate's stored baseline and clean runs load the
 * tax's hook with no work (`cleanTax`), as the taxed runs load it with
 * some: only the work differs (bench:compare does the same on its base side).
 */
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
  defaults,
  gatesOnCpu: false,
  takesInstructionTax: true,
  // node bench: the candidates are the targets it counts.
  targetsToCount: (candidates) => candidates,
  setUp,
  calibration
}
