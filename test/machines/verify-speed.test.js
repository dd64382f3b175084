'use strict'

// verify's speed verdict on a CPU with another mix of costs: hashing or
// serialization four times cheaper or dearer against the rest of a request
// (test/machine-mix.js), and this machine's own. Where a server lands
// between fixed/ and fast/ is the mix's; what verify may say is not:
//   - the copy that still hashes every body costs more than fixed/ on every
//     CPU: never "about as fast as fixed/" (nor faster, nor past fast/);
//   - the one-line fix is fast/'s code: "about as fast as fast/", or verify's
//     "run it again", never another place;
//   - a copy of fixed/: "about as fast as fixed/", or "run it again".
// The three are judged from the same rounds, loaded beside fixed and a fast/
// of the same mix, each judged as verify judges yours (workshop/speed.js).

const t = require('tap')
const { TARGETS } = require('../../bench/protocol/targets')
const { measureSideBySide } = require('../../bench/measure/side-by-side')
const { measureRounds, judgeSpeed, speedDecided, SPEED_SENTENCES, SPEED_PROTOCOL, YOURS } = require('../../workshop/speed')
const { skipOffMainLine } = require('../skips')
const { MIXES, fastAtMix, hashingAtMix } = require('../machine-mix')
const { hashingCopy, oneLineFixCopy, fixedCopy } = require('../workshop/copies')
require('../untapped-children')

// Five servers a round, 8 to 12 rounds, at each of five mixes.
t.setTimeout(10 * 60 * 1000)

// Where verify may place each (speedVerdict's sentences, yours named "yours"); `again` marks the verdicts that
// place nothing and ask for another run.
const PLACES = {
  hashing: [SPEED_SENTENCES.between(YOURS), SPEED_SENTENCES['as fast'](YOURS)],
  oneLineFix: [SPEED_SENTENCES['as fast'](YOURS)],
  fixedCopy: [SPEED_SENTENCES['as fixed'](YOURS)]
}

const OWN_MIX = { name: 'this machine' }

for (const mix of [OWN_MIX, ...MIXES]) {
  t.test(`${mix.name}: each copy where it belongs, or "run it again"`, {
    skip: skipOffMainLine("verify's speed verdict is a measurement")
  }, async (t) => {
    const fast = mix === OWN_MIX ? TARGETS.fast.entry : fastAtMix(t, mix)
    const candidates = {
      hashing: mix === OWN_MIX ? hashingCopy(t, 'mix-hashing') : hashingAtMix(t, mix),
      oneLineFix: mix === OWN_MIX ? oneLineFixCopy(t, 'mix-one-line-fix') : fastAtMix(t, { ...mix, name: `${mix.name}-again` }),
      fixedCopy: fixedCopy(t, `mix-fixed-${mix.name.replace(/ /g, '-')}`)
    }
    const judged = await placeTogether(candidates, fast)
    for (const [name, { verdict, between }] of Object.entries(judged)) {
      const place = between ? `${between.share.toFixed(2)} of the way from fixed/ to fast/ (${between.interval.map((v) => v.toFixed(2)).join(' to ')}), ${between.rounds} rounds` : 'not placed'
      t.ok(PLACES[name].includes(verdict.sentence) || verdict.again, `${name}: ${verdict.sentence} ${verdict.figures.join(' ')}; ${place}`)
    }
  })
}

/**
 * Every candidate ({ name: folder }) loaded with fixed and `fast` in the
 * same rounds, as verify's speed protocol measures yours (measureRounds);
 * more rounds while one of them is not placed. Returns { name: judgeSpeed }.
 */
async function placeTogether (candidates, fast) {
  const sides = Object.fromEntries([
    { ...TARGETS.fixed, name: 'fixed' },
    { ...TARGETS.fast, name: 'fast', entry: fast },
    ...Object.entries(candidates).map(([name, entry]) => ({ name, entry }))
  ].map((side) => [side.name, { ...side, label: `mix-${side.name}` }]))
  const names = Object.keys(candidates)
  const runs = []
  await measureRounds(Object.keys(sides), {
    protocol: SPEED_PROTOCOL,
    measureRound: async (group, round) => {
      const measured = await measureSideBySide(group.map((name) => sides[name]), SPEED_PROTOCOL)
      for (const [target, figures] of Object.entries(measured)) runs.push({ target, round, by: 'time', ...figures })
    },
    decided: () => names.every((name) => speedDecided(as(runs, name)))
  })
  return Object.fromEntries(names.map((name) => [name, judgeSpeed(as(runs, name))]))
}

// The rounds as verify records them, with `name` as yours.
function as (runs, name) {
  return runs
    .filter((run) => ['fixed', 'fast', name].includes(run.target))
    .map((run) => (run.target === name ? { ...run, target: YOURS } : run))
}
