'use strict'

// bench:ci's goal on CPUs where hashing, or serialization, is four times
// cheaper against the rest of a request (test/machine-mix.js): slow's and
// fast's listener work shrinks there, restify's does not, so cpu slow/fast
// falls. A dearer mix only raises it (slow pays the listener's work once per
// listener, fast once). The whole machine four times as fast, the floor's
// other test, is docs/benchmark.md's "Goals on any machine".

const t = require('tap')
const { TARGETS } = require('../../bench/protocol/targets')
const { MODES } = require('../../bench/judge/goals')
const { runComparison } = require('../../bench/measure/rounds')
const { evaluateRun } = require('../../bench/judge/evaluate')
const { skipOffMainLine } = require('../skips')
const { MIXES, slowAtMix, fastAtMix } = require('../machine-mix')

// bench:ci's protocol for two targets: seven rounds of a few seconds each.
t.setTimeout(4 * 60 * 1000)

const GOAL = 'cpu slow/fast'

for (const mix of MIXES.filter(({ factor }) => factor < 1)) {
  t.test(`${mix.name}: bench:ci's ${GOAL} goal holds`, {
    skip: skipOffMainLine("bench:ci's goal is a measurement")
  }, async (t) => {
    const targets = {
      ...TARGETS,
      slow: { ...TARGETS.slow, entry: slowAtMix(t, mix) },
      fast: { ...TARGETS.fast, entry: fastAtMix(t, mix) }
    }
    const protocol = { ...MODES.ci.protocol, targets: ['slow', 'fast'] }
    const evaluation = evaluateRun(await runComparison(protocol, { targets }), { mode: 'ci' })
    const ratio = evaluation.ratios.find(({ name }) => name === GOAL)
    t.equal(ratio.goal, MODES.ci.goals[GOAL], `${GOAL} has bench:ci's goal`)
    t.equal(ratio.holds, true, `${GOAL} ${ratio.value.toFixed(1)}, goal ${ratio.goal}; pairs ${ratio.pairs?.map((v) => v.toFixed(1)).join(', ')}`)
    t.same(evaluation.failures, [], 'no goal or check missed')
  })
}
