'use strict'

// bench:serializer's verdict, pure: per body, median times and JSON.stringify's time over each other's.

const { median, pairedRatio } = require('../judge/stats')

const REFERENCE = 'JSON.stringify'

function judgeBody ({ id, label, iterations, runs }, { serializers, contender }) {
  const names = serializers.map(({ name }) => name)
  const ns = Object.fromEntries(names.map((name) => [name, median(runs.filter((run) => run.target === name).map((run) => run.ns))]))
  const ratios = names.filter((name) => name !== REFERENCE).map((over) => {
    const { value, pairs } = pairedRatio(runs, { of: REFERENCE, over, metric: 'ns' })
    return { of: REFERENCE, over, median: value, min: Math.min(...pairs), max: Math.max(...pairs), rounds: pairs.length }
  })
  return { id, label, iterations, ns, ratios, verdict: verdictOf(ratios.find((ratio) => ratio.over === contender)) }
}

// `faster` is null unless the whole spread is on one side of 1; `factor`: the slower time over the faster.
function verdictOf ({ of, over, median, min, max, rounds }) {
  const figures = `${of} / ${over} ${median.toFixed(2)}, ${min.toFixed(2)}-${max.toFixed(2)} over ${rounds} round${rounds === 1 ? '' : 's'}`
  if (min > 1) return { faster: over, factor: median, text: `${over} is faster: ${of} takes ${median.toFixed(2)}x its time (${figures})` }
  if (max < 1) return { faster: of, factor: 1 / median, text: `${of} is faster: ${over} takes ${(1 / median).toFixed(2)}x its time (${figures})` }
  return { faster: null, factor: null, text: `${of} and ${over} are within the rounds' spread (${figures})` }
}

module.exports = { judgeBody, verdictOf, REFERENCE }
