'use strict'

// The CPU meter (--meter cpu, the default): a gate reads CPU time per
// request, the server's own, which the rounds every command runs measure
// anyway (bench/measure/rounds.js, bench:compare's paired-run.js) and the
// commands' own judges weigh (bench/judge/evaluate.js against a stored run,
// a report; bench/compare/verdict.js against the base, the gate). So it
// counts nothing beside the rounds: set up, it checks nothing, adds nothing
// to a result and prints nothing; its gate is the CPU gate's.
// bench/meters/index.js says what every meter holds.

const { median } = require('../judge/stats')
const { REFERENCE } = require('../judge/goals')
const { signedPercent } = require('../../tooling/number-text')

const defaults = {
  // node bench: the false-alarm rate of the CPU ratios against --baseline.
  bench: { alpha: 0.01 },
  // bench:compare: its own defaults (bench/compare/index.js).
  compare: {}
}

// Set up for a run: nothing to check, nothing to count.
const RUN = {
  checkBaseline: (baseline) => baseline,
  cpuBaseline: (baseline) => baseline,
  count: async () => ({}),
  gate: (cpuFailures) => cpuFailures,
  renderCounts: () => [],
  renderComparison: () => []
}

/**
 * How bench:calibrate taxes this meter (`tax(target, micros)`: the
 * arguments that add busy CPU to each request of `target`) and reads a
 * gate's --json result, for the taxed target `taxed`: whether it raised the
 * alarm (`readRun`), the taxed cost (`costOf`; `baseCostOf`, the base's side
 * in a comparison) and the stored baseline it is judged against
 * (`describeBaseline`).
 */
const calibration = {
  unit: 'µs/req',
  levels: '5,10,20',
  runArgs: () => [],
  tax: (target, micros) => ['--cpu-tax', `${target}=${micros.toFixed(3)}`],
  gates: {
    ci: (taxed) => {
      const ratio = `cpu ${taxed}/${REFERENCE}`
      return {
        describeBaseline: (result, cost) => `${cost.toFixed(2)} µs/req, ${ratio} ${result.ratios.find((r) => r.name === ratio).value.toFixed(3)}`,
        readRun (result) {
          const gate = result.baseline.find((b) => b.name === ratio)
          return { alarm: gate.holds === false, what: `${ratio} ${gate.value.toFixed(3)}`, change: gate.change, pValue: gate.pValue }
        },
        costOf: (result) => median(result.runs.filter((run) => run.target === taxed).map((run) => run.cpuMicrosPerRequest))
      }
    },
    compare: (taxed) => {
      const cpuOf = (result) => result.comparisons.find((c) => c.target === taxed).metrics.cpuMicrosPerRequest
      return {
        readRun (result) {
          const fixed = result.comparisons.find((c) => c.target === taxed)
          const cpu = fixed.metrics.cpuMicrosPerRequest
          // An alarm on another target is named: it is a false alarm there.
          const others = result.comparisons.filter((c) => c.regressed && c.target !== taxed)
            .map((c) => `; ${c.target} ${c.verdict} (${signedPercent(c.metrics.cpuMicrosPerRequest.change)}, p = ${c.metrics.cpuMicrosPerRequest.pWorse.toPrecision(2)})`)
          return { alarm: result.failures.length > 0, what: `${taxed} ${cpu.base.toFixed(1)} -> ${cpu.head.toFixed(1)} µs, ${fixed.verdict}${others.join('')}`, change: cpu.change, pValue: cpu.pWorse }
        },
        costOf: (result) => cpuOf(result).head,
        baseCostOf: (result) => cpuOf(result).base
      }
    }
  }
}

module.exports = {
  name: 'cpu',
  defaults,
  gatesOnCpu: true,
  takesInstructionTax: false,
  targetsToCount: () => [],
  setUp: () => RUN,
  calibration
}
