'use strict'

// The CPU meter (--meter cpu, the default). Every command's rounds measure CPU per request
// anyway, so this meter checks, counts and prints nothing of its own; its gate is the CPU gate.

const { median } = require('../judge/stats')
const { REFERENCE } = require('../judge/goals')
const { signedPercent } = require('../../tooling/number-text')

const defaults = {
  // node bench: the false-alarm rate of the CPU ratios against --baseline.
  bench: { alpha: 0.01 },
  compare: {}
}

const RUN = {
  checkBaseline: (baseline) => baseline,
  cpuBaseline: (baseline) => baseline,
  count: async () => ({}),
  gate: (cpuFailures) => cpuFailures,
  renderCounts: () => [],
  renderComparison: () => []
}

// How bench:calibrate adds busy CPU to each request of a target and reads a gate's --json
// result: the alarm (readRun), the taxed cost (costOf; baseCostOf, the base's side).
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
  // What it gates, in a verdict's words: "head costs more CPU a request".
  gates: 'CPU',
  defaults,
  gatesOnCpu: true,
  takesInstructionTax: false,
  targetsToCount: () => [],
  setUp: () => RUN,
  calibration
}
