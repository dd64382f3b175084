'use strict'

// The benchmark's goals on slow, fast and fixed, on CPUs where hashing, or
// serialization, is four times cheaper against the rest of a request
// (test/machine-mix.js), and on one four times as fast at the listener's
// whole work (test/machine-speed.js): slow's and fast's listener work
// shrinks there, restify's and fixed's do not, so cpu slow/fast and cpu
// fast/fixed fall. A dearer mix only raises them (slow pays the listener's
// work once per listener, fast once, fixed never).
//
// bench:ci's goal at the two cheaper mixes, in CI (its floor at four times
// the speed: docs/benchmark.md, "Goals on any machine"). With
// GOALS_MODES=ci,full, npm run bench's too, at all three: minutes of load a
// condition, for whoever sets a goal.

const t = require('tap')
const { TARGETS } = require('../../bench/protocol/targets')
const { MODES } = require('../../bench/judge/goals')
const { runComparison } = require('../../bench/measure/rounds')
const { evaluateRun } = require('../../bench/judge/evaluate')
const { skipOffMainLine } = require('../skips')
const { MIXES, slowAtMix, fastAtMix } = require('../machine-mix')
const { atSpeed } = require('../machine-speed')

const MODE_NAMES = (process.env.GOALS_MODES ?? 'ci').split(',')
t.setTimeout(MODE_NAMES.length * 6 * 60 * 1000)

const FAST_MACHINE = {
  name: 'four times the speed',
  slow: (t) => atSpeed(t, 4),
  fast: (t) => atSpeed(t, 4, { oneLineFix: true })
}
const CHEAPER_MIXES = MIXES.filter(({ factor }) => factor < 1).map((mix) => ({
  name: mix.name,
  slow: (t) => slowAtMix(t, mix),
  fast: (t) => fastAtMix(t, mix)
}))
const CONDITIONS = { ci: CHEAPER_MIXES, full: [FAST_MACHINE, ...CHEAPER_MIXES] }
// The emulated servers and the goals over them.
const EMULATED = ['slow', 'fast', 'fixed']

for (const mode of MODE_NAMES) {
  const goals = Object.keys(MODES[mode].goals).filter((name) => name.split(' ')[1].split('/').every((target) => EMULATED.includes(target)))
  const targets = EMULATED.filter((target) => goals.some((name) => name.split(' ')[1].split('/').includes(target)))
  for (const condition of CONDITIONS[mode]) {
    t.test(`${mode}, ${condition.name}: ${goals.join(', ')} hold`, {
      skip: skipOffMainLine("the benchmark's goals are a measurement")
    }, async (t) => {
      const definitions = { ...TARGETS }
      for (const target of targets) if (condition[target]) definitions[target] = { ...TARGETS[target], entry: condition[target](t) }
      const protocol = { ...MODES[mode].protocol, targets }
      const evaluation = evaluateRun(await runComparison(protocol, { targets: definitions }), { mode })
      for (const name of goals) {
        const ratio = evaluation.ratios.find((r) => r.name === name)
        t.equal(ratio.holds, true, `${name} ${ratio.value.toFixed(2)}, goal ${ratio.goal}; pairs ${ratio.pairs?.map((v) => v.toFixed(2)).join(', ')}`)
      }
      t.same(evaluation.failures, [], 'no goal or check missed')
    })
  }
}
