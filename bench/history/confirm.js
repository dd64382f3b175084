'use strict'

// `bench:history -- confirm`: each change point, weak ones too, measured
// again. Where commits lie unrecorded between its two sides, they are
// bisected with the meter, each count kept as a point, until two adjacent
// commits hold the move; an A/B of those two, judged as the instruction
// gate judges (judgeInstructions), then confirms it or not.

const { checkOutBase } = require('../measure/trees')
const { countTargets, DEFAULTS: PROTOCOL } = require('../measure/instructions')
const { judgeInstructions } = require('../judge/instructions')
const { TARGETS } = require('../protocol/targets')
const { recordCommits, meterSeries, countingContext } = require('./record')
const { historyReport, firstParents } = require('./report')
const { addPoints } = require('./store')
const { signed } = require('./changes')

/**
 * Confirm the unconfirmed change points of the series this machine counts
 * (`meter`, `count`: the tests' own). `kept` is called after each line
 * kept, each bisection count and each verdict: --push pushes there, so a
 * job cut short by its time limit loses at most the count under way.
 * Resolves to [{ target, before, after, counted (commits bisected),
 * verdict, change, confirmed }].
 */
async function confirmChanges ({ root, ref = 'HEAD', count = countTargets, meter = null, log = () => {}, kept = () => {} }) {
  const context = countingContext(meter)
  const { series: here } = meterSeries(context)
  const order = firstParents(root, ref)
  const results = []
  for (const series of historyReport({ root, ref })) {
    const open = series.changes.filter((change) => change.confirmation === null)
    if (open.length === 0) continue
    if (series.series !== here) {
      log(`confirm: ${series.target}, series ${series.series}: counted with ${series.about}, this machine counts series ${here}: left as it is`)
      continue
    }
    for (const change of open) results.push(await confirmChange(change, series, { root, order, count, context, here, log, kept }))
  }
  if (results.length === 0) log('confirm: no change point to confirm')
  return results
}

async function confirmChange (change, { target, commits, values }, { root, order, count, context, here, log, kept }) {
  let low = order.indexOf(change.before.commit)
  let high = order.indexOf(change.after.commit)
  const lowCount = values[commits.indexOf(change.before.commit)]
  const highCount = values[commits.indexOf(change.after.commit)]
  const counted = []
  // Each count a side: nearer the count before the change, or after it.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    const [{ points: [point] }] = await recordCommits([order[middle]], { root, targets: [target], count, cpu: null, meter: context })
    counted.push(order[middle])
    kept()
    const before = Math.abs(point.instructionsPerRequest - lowCount) <= Math.abs(point.instructionsPerRequest - highCount)
    log(`confirm: ${target}: bisect ${order[middle].slice(0, 12)}: ${Math.round(point.instructionsPerRequest)}, as before the change: ${before ? 'yes' : 'no'}`)
    if (before) low = middle
    else high = middle
  }
  const [before, after] = [order[low], order[high]]
  const { comparisons: [judged] } = await compareCommits(before, after, target, { root, count, context })
  const upwards = change.shift.difference > 0
  const confirmed = judged.verdict === (upwards ? 'REGRESSION' : 'cheaper')
  addPoints(after, [{ kind: 'confirmation', series: here, target, before, base: judged.base, head: judged.head, verdict: judged.verdict, change: judged.change, pWorse: judged.pWorse, pBetter: judged.pBetter, confirmed }], { root })
  kept()
  log(`confirm: ${target}: ${before.slice(0, 12)} -> ${after.slice(0, 12)}: A/B ${judged.verdict}, ${signed(judged.change * 100)} %: ` +
    `${confirmed ? 'confirmed' : 'not confirmed'}${counted.length > 0 ? `, named after ${counted.length} bisection count(s)` : ''}`)
  return { target, before, after, counted, verdict: judged.verdict, change: judged.change, confirmed }
}

// Both commits counted side by side, each from its own worktree, as
// bench:compare --meter instructions counts base and head. The counts stay
// in the verdict's line, not in the series: the history is what was recorded.
async function compareCommits (before, after, target, { root, count, context }) {
  const checkouts = []
  try {
    for (const commit of [before, after]) checkouts.push(checkOutBase(commit, { root }))
    const [base, head] = checkouts.map((checkout) => checkout.dir)
    const counts = await count([target], TARGETS, { trees: { base, head }, protocol: context.protocol ?? PROTOCOL })
    return judgeInstructions({ base: { [target]: counts.base[target].windows }, head: { [target]: counts.head[target].windows } }, { targets: [target] })
  } finally {
    for (const checkout of checkouts) checkout.remove()
  }
}

module.exports = { confirmChanges }
