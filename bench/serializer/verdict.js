'use strict'

// What bench:serializer's rounds say, pure: each serializer's median time
// per body, JSON.stringify's time over each other serializer's round by
// round, and which is faster.

const { median, pairedRatio } = require('../judge/stats')

const REFERENCE = 'JSON.stringify'

/**
 * One body's figures from its rounds ({ id, label, iterations, runs }):
 * `ns`, each serializer's median ns per serialization; `ratios`, for each
 * other serializer, JSON.stringify's time over its time in the same round
 * (above 1: the other is faster), the median and the min-max over rounds;
 * and `verdict`, the ratio over `contender` read as a sentence.
 */
function judgeBody ({ id, label, iterations, runs }, { serializers, contender }) {
  const names = serializers.map(({ name }) => name)
  const ns = Object.fromEntries(names.map((name) => [name, median(runs.filter((run) => run.target === name).map((run) => run.ns))]))
  const ratios = names.filter((name) => name !== REFERENCE).map((over) => {
    const { value, pairs } = pairedRatio(runs, { of: REFERENCE, over, metric: 'ns' })
    return { of: REFERENCE, over, median: value, min: Math.min(...pairs), max: Math.max(...pairs), rounds: pairs.length }
  })
  return { id, label, iterations, ns, ratios, verdict: verdictOf(ratios.find((ratio) => ratio.over === contender)) }
}

/**
 * A ratio of JSON.stringify's time over another's as a verdict: `faster`
 * names the faster one when every round agrees (the ratio's whole spread
 * on one side of 1), null when the spread holds 1; `factor` is how many
 * times the slower one's time the faster one's is, from the median.
 */
function verdictOf ({ of, over, median, min, max, rounds }) {
  const figures = `${of} / ${over} ${median.toFixed(2)}, ${min.toFixed(2)}-${max.toFixed(2)} over ${rounds} round${rounds === 1 ? '' : 's'}`
  if (min > 1) return { faster: over, factor: median, text: `${over} is faster: ${of} takes ${median.toFixed(2)}x its time (${figures})` }
  if (max < 1) return { faster: of, factor: 1 / median, text: `${of} is faster: ${over} takes ${(1 / median).toFixed(2)}x its time (${figures})` }
  return { faster: null, factor: null, text: `${of} and ${over} are within the rounds' spread (${figures})` }
}

module.exports = { judgeBody, verdictOf, REFERENCE }
