'use strict'

// The meters: what a gate reads, each a module the commands hold and call
// (--meter NAME picks one). A meter holds, for every command that takes it:
// - name, and defaults: { bench: { alpha }, compare: { rounds?,
//   maxRegression? } }, what it changes in each command's own;
// - gatesOnCpu: whether the CPU rounds gate (else they are reported);
//   takesInstructionTax: whether --instruction-tax has work to add to;
// - targetsToCount(candidates): what node bench counts beside its rounds;
// - setUp(protocol, { where }): checked and ready before anything runs, the
//   meter of the run: checkBaseline(baseline, file) and cpuBaseline(baseline)
//   (node bench --baseline), count(job) (what it adds to the result),
//   gate(cpuFailures, counted) (the failures that fail the run),
//   renderCounts(results, baseline) and renderComparison(result, cpu) (what
//   node bench and bench:compare print of it);
// - calibration: how bench:calibrate taxes it and reads its gates' results.
// cpu.js is the default and adds nothing to the rounds; instructions.js
// counts under valgrind beside them.

const { UsageError } = require('../../tooling/command')

const METERS = {
  cpu: require('./cpu'),
  instructions: require('./instructions')
}

const NAMES = Object.keys(METERS)

/**
 * --meter NAME: the meter module, or a UsageError listing the meters
 * (`choices` words the list: bench:calibrate's says "cpu or instructions").
 */
function parseMeter (text, { choices = `one of ${NAMES.join(', ')}` } = {}) {
  if (!Object.hasOwn(METERS, text)) throw new UsageError(`--meter must be ${choices}, got "${text}"`)
  return METERS[text]
}

module.exports = { METERS, NAMES, parseMeter }
