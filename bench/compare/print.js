'use strict'

// bench:compare's printing: the table for a terminal, as Markdown for a pull
// request or job summary, and the head's figures in CI benchmark formats.

const { signedPercent } = require('../../tooling/number-text')
const { toBencherMetricFormat, toGithubBenchmark } = require('../print/ci-formats')
const { decimal } = require('../print/numbers')
const { textTable, markdownTable } = require('../print/table')
const { COMPARED, intervalText } = require('./verdict')
const { GATED } = require('../protocol/metrics')
const { renderChangesMarkdown } = require('../print/instructions')
const { wrapLine } = require('../../tooling/wrap-text')
const { METERS } = require('../meters')

const short = (commit) => commit.slice(0, 10)

function renderTrees ({ base, head }) {
  return [
    `Base: ${short(base.commit)} (${base.ref}: ${base.why}), checked out in a temporary worktree; dependencies: ${base.install}`,
    `Head: ${short(head.commit)}${head.dirty ? ' with uncommitted changes: the working tree as it is' : ' (the working tree, no uncommitted change)'}`
  ].join('\n')
}

function renderProtocol (protocol, { leaking }) {
  return [
    `Protocol: ${protocol.targets.join(', ')}; ${protocol.rounds} rounds, each target's base and head started fresh in each round and loaded at the same time,`,
    `  autocannon -c ${protocol.connections} on each, ${protocol.warmup} s warm-up then ${protocol.duration} s measured;` +
      ' which side is loaded first alternates ABBA' +
      (leaking.length > 0 ? `;\n  ${leaking.join(', ')} by request counts: ${protocol.warmupRequests} warm-up, ${protocol.requests} measured` : '')
  ].join('\n')
}

const COLUMNS = [
  { title: 'target', value: (c) => c.target, align: 'left' },
  // decimal for all: slow's low req/s keeps the decimals that tell base from head.
  ...COMPARED.map(({ key, label }) => ({ title: `${label} base -> head`, value: (c) => `${decimal(c.metrics[key].base)} -> ${decimal(c.metrics[key].head)}` })),
  { title: 'CPU change', value: (c) => signedPercent(c.metrics[GATED.key].change) },
  { title: 'interval', value: (c) => c.metrics[GATED.key].resolvable ? intervalText(c.metrics[GATED.key].interval) : `n/a (${c.rounds} rounds)` },
  { title: 'p', value: (c) => pText(c.metrics[GATED.key]) },
  { title: 'verdict', value: (c) => c.verdict, align: 'left' }
]

// The one-sided p-value in the direction the change went; n/a when the
// rounds are too few to reach alpha.
function pText ({ change, pWorse, pBetter, resolvable }) {
  if (change === null || !resolvable) return 'n/a'
  return (change >= 0 ? pWorse : pBetter).toPrecision(2)
}

function renderTable (result) {
  return [
    textTable(COLUMNS, result.comparisons),
    '',
    ...readingNotes(result),
    ...cpuNotes(result).map((note) => `Note: ${note}.`)
  ].join('\n')
}

// Under the instruction meter the CPU rounds gate nothing: no per-target note.
function cpuNotes (result) {
  if (result.instructions) return []
  return result.comparisons.filter((c) => c.note).map((c) => `${c.target}: ${c.note}`)
}

function readingNotes ({ alpha, alphaPerTarget, maxRegression, comparisons, instructions }) {
  if (instructions) {
    return [`Figures are medians over the ${comparisons[0]?.rounds ?? 0} rounds, a change the Hodges-Lehmann estimate from the rounds' head/base ratios: ` +
      'reported beside the count, too few rounds for a verdict of their own.']
  }
  const confidence = `${+((1 - 2 * alphaPerTarget) * 100).toFixed(1)} %`
  return [
    'Figures are medians over the rounds; a change is the Hodges-Lehmann estimate from the rounds\' head/base ratios.',
    `Only ${GATED.name} gates: interval = the ${confidence} interval of its change, p = one-sided, exact Wilcoxon signed-rank test over the ${comparisons[0]?.rounds ?? 0} rounds' pairs`,
    `(alpha ${alpha} over ${comparisons.length} target(s)); a REGRESSION is significant and its interval reaches the ${signedPercent(maxRegression)} allowance.`
  ]
}

// The verdict in a terminal: a sentence first, then each target's change on lines of their own.
function renderVerdict (result) {
  const lines = verdictInWords(result)
  const figures = result.instructions
    ? changeLines('instructions per request', result.instructions.comparisons.map((c) => [c.target, c.change]))
    : changeLines(GATED.name, result.comparisons.map((c) => [c.target, c.metrics[GATED.key].change]))
  return [...lines, ...figures].join('\n')
}

function verdictInWords (result) {
  if (result.failures.length > 0) {
    const regressed = result.instructions ? result.instructions.comparisons : result.comparisons
    const where = regressed.filter((c) => c.regressed).map((c) => c.target)
    const what = (result.instructions ? METERS.instructions : METERS.cpu).gates
    return [
      wrapLine('', `REGRESSION: head costs more ${what} a request than base${where.length > 0 ? ` in ${listed(where)}` : ''}.`),
      ...result.failures.map((failure) => wrapLine('  - ', failure))
    ]
  }
  const allowance = signedPercent(result.maxRegression)
  if (result.instructions) {
    const changed = result.instructions.comparisons.filter((c) => !c.verdict.startsWith('within'))
    if (changed.length === 0) return [`No regression: head counts the instructions base counts, within ${allowance.replace('+', '±')}.`]
    return [wrapLine('', `No regression of ${allowance} in instructions. ${byVerdict(changed, INSTRUCTION_CHANGES)}`)]
  }
  const changed = result.comparisons.filter((c) => c.verdict !== 'no significant change')
  if (changed.length === 0) return ['No regression: head costs what base costs.']
  return [wrapLine('', `No regression beyond ${allowance}. ${byVerdict(changed, CPU_CHANGES)}`)]
}

// Per verdict, what a sentence says of the targets that got it.
const CPU_CHANGES = [
  [(v) => v === 'improvement', (names) => `head costs less than base in ${names}.`],
  [(v) => v.startsWith('slower'), (names) => `head costs more in ${names}, within the allowance.`],
  [(v) => v === 'cannot tell', (names) => `Too few rounds to tell in ${names}.`]
]
const INSTRUCTION_CHANGES = [
  [(v) => v === 'cheaper', (names) => `head counts fewer than base in ${names}.`],
  [(v) => v === 'cannot tell', (names) => `Too few rounds to tell in ${names}.`]
]

function byVerdict (changed, sentences) {
  return sentences.map(([is, say]) => {
    const names = changed.filter((c) => is(c.verdict)).map((c) => c.target)
    return names.length > 0 ? say(listed(names)) : null
  }).filter(Boolean).join(' ')
}

function changeLines (what, changes) {
  return [wrapLine('  ', `${what}, head against base: ${changes.map(([target, change]) => `${target} ${signedPercent(change)}`).join(', ')}`, { indent: '    ' })]
}

const listed = (names) => names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`

// The verdict as the Markdown summary heads it, and as CI posts it on a pull request.
function markdownVerdict (result) {
  if (result.failures.length > 0) return ['REGRESSION', ...result.failures.map((f) => `- ${f}`)]
  if (result.instructions) {
    const changed = result.instructions.comparisons.filter((c) => !c.verdict.startsWith('within'))
    const allowance = `${signedPercent(result.maxRegression)} in instructions per request`
    if (changed.length === 0) return [`no change of ${allowance.replace('+', '±')}`]
    return [`no regression of ${allowance} (${changed.map((c) => `${c.target}: ${c.verdict}`).join('; ')})`]
  }
  const changed = result.comparisons.filter((c) => c.verdict !== 'no significant change')
  if (changed.length === 0) return ['no significant change']
  return [`no regression beyond ${signedPercent(result.maxRegression)} (${changed.map((c) => `${c.target}: ${c.verdict}`).join('; ')})`]
}

function renderMarkdown (result) {
  const { base, head, protocol, machine } = result
  const verdict = markdownVerdict(result)
  const table = markdownTable(COLUMNS, result.comparisons, {
    title: (col) => col.title.replace('->', '→'),
    cell: (col, c) => {
      const text = col.value(c).replace(/->/g, '→')
      return col.title === 'verdict' && c.regressed ? `**${text}**` : text
    }
  })
  return [
    `### bench:compare: \`${short(base.commit)}\` (base) → \`${short(head.commit)}\`${head.dirty ? ' + uncommitted changes' : ''} (head)`,
    '',
    `**${verdict[0]}**`,
    ...verdict.slice(1),
    '',
    ...(result.instructions
      ? ['#### Instructions per request (gated)', '', ...renderChangesMarkdown(result.instructions, cpuBySide(result)), '', '#### CPU per request (reported beside, not gated)', '']
      : []),
    ...table,
    '',
    ...readingNotes(result).join(' ').split('\n'),
    ...cpuNotes(result).map((note) => `\n_${note}._`),
    '',
    `${protocol.rounds} rounds of ${protocol.targets.join(', ')}: base and head started fresh and loaded at the same time in each round ` +
      `(autocannon -c ${protocol.connections} each, ${protocol.warmup} s warm-up, ${protocol.duration} s measured), ABBA order; ` +
      `${machine.cores} x ${machine.cpuModel}, Node ${machine.node}. Base: ${base.ref} (${base.why}).`,
    ''
  ].join('\n')
}

// The head's figures, plus the CPU change against the base per target.
function toBencherJson (result) {
  const metrics = toBencherMetricFormat(headSide(result))
  for (const c of result.comparisons) {
    const { change, interval } = c.metrics[GATED.key]
    metrics[c.target]['cpu-change-against-base'] = { value: change, lower_value: interval[0], upper_value: interval[1] }
  }
  return metrics
}

function toGithubBenchmarkJson (result) {
  const entries = toGithubBenchmark(headSide(result))
  for (const c of result.comparisons) {
    const { change, interval } = c.metrics[GATED.key]
    entries.push({
      name: `${c.target} - CPU per request change against base`,
      unit: '%',
      value: change * 100,
      range: `${(interval[0] * 100).toFixed(1)} … ${(interval[1] * 100).toFixed(1)}`,
      extra: `${c.verdict}; base ${short(result.base.commit)}, ${c.rounds} paired rounds`
    })
  }
  return entries
}

// Each target's median CPU per request on both sides, from the paired rounds.
function cpuBySide ({ comparisons }) {
  return Object.fromEntries(comparisons.map((c) => [c.target, { base: c.metrics[GATED.key].base, head: c.metrics[GATED.key].head }]))
}

function headSide ({ pairs, comparisons }) {
  return { runs: pairs.map((pair) => pair.head), summaries: comparisons.map(({ target }) => ({ target })), ratios: [] }
}

module.exports = { renderTrees, renderProtocol, renderTable, renderVerdict, renderMarkdown, cpuBySide, toBencherJson, toGithubBenchmarkJson }
