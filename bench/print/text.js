'use strict'

// A run in the terminal: protocol and machine, the table of medians, the ratios with their goals
// and verdicts, the per-second chart, then the verdict in words. markdown.js and html/ render the same run.

const { signedPercent } = require('../../tooling/number-text')
const { medianRound } = require('../judge/stats')
const { judgeRun } = require('../judge/evaluate')
const { wrapLine, LINE_WIDTH } = require('../../tooling/wrap-text')
const { renderMachine } = require('./machine')
const { integer, figureColumn, ratioText, ratioValueText } = require('./numbers')
const { textTable } = require('./table')

const BARS = '▁▂▃▄▅▆▇█'
// Drawn, so a second without a response is not mistaken for one not measured.
const NO_RESPONSE = '·'

// The figures a reader compares targets by; the duration, response count, largest latency and
// CPU time stay in the --json result.
const SUMMARY_FIGURES = ['requestsPerSecond', 'latencyP50', 'latencyP975', 'latencyP99', 'bytesPerSecond', 'status2xx', 'status304',
  'status503', 'statusOther', 'errors', 'timeouts', 'peakRssBytes', 'cpuMicrosPerRequest']
const SUMMARY_COLUMNS = [
  { title: 'target', value: (s) => s.target, align: 'left' },
  ...SUMMARY_FIGURES.map(figureColumn)
]

function renderProtocol ({ mode, protocol, machine, targets, versions = {} }) {
  const leaking = protocol.targets.filter((t) => targets[t].leaking)
  return [
    `Protocol (${mode}): ${protocol.targets.join(', ')}`,
    `  each target in a fresh process on 127.0.0.1; autocannon -c ${protocol.connections}, ` +
      `${protocol.warmup} s warm-up then ${protocol.duration} s measured, ${protocol.rounds} round(s), ` +
      'order reversed every other round',
    ...(leaking.length > 0
      ? [`  ${leaking.join(', ')} (cost grows with every request served): ${protocol.warmupRequests} requests warm-up, ` +
        `then ${protocol.requests} measured, the same count on any machine`]
      : []),
    '  figures are medians over rounds; ratios are medians of the rounds\' pairs',
    renderMachine(machine, versions)
  ].join('\n')
}

function renderTable (summaries) {
  return textTable(SUMMARY_COLUMNS, summaries)
}

function renderRatios (ratios, baseline = []) {
  const lines = ratios.map((r) => {
    const goal = r.goal === null ? '' : `goal ${r.better === 'lower' ? '<=' : '>='} ${r.goal}`
    const verdict = r.holds === null ? '' : r.holds ? 'holds' : 'SHORT'
    const pairs = r.pairs.length > 1 ? `(pairs: ${r.pairs.map((p) => ratioText(p)).join(', ')})` : ''
    return `  ${r.name.padEnd(24)} ${ratioValueText(r).padStart(8)}  ${goal.padEnd(12)} ${verdict.padEnd(5)} ${pairs}`.trimEnd()
  })
  for (const b of baseline) {
    const change = signedPercent(b.change)
    const verdict = b.holds === null ? 'CANNOT TELL' : b.holds ? 'holds' : 'WORSE'
    const p = b.pValue === null ? b.note : `p = ${b.pValue.toPrecision(2)}, ${b.rounds} rounds against ${b.baselineRounds}`
    lines.push(`  baseline ${b.name.padEnd(24)} ${b.baseline.toFixed(3)} -> ${b.value.toFixed(3)} (${change}) ${verdict} (${p})`)
  }
  return ['Ratios (throughput unless marked cpu):', ...lines].join('\n')
}

// The CPU ratios against a stored baseline (evaluateRun's baselineReport).
function renderBaselineReport ({ note, findings }) {
  const what = findings.length > 0 ? findings : ['no CPU ratio worse than the baseline\'s']
  return [`Against the baseline, ${note}:`, ...what.map((finding) => `  - ${finding}`)].join('\n')
}

// Each row is scaled to its own peak, so slow's decay shows whatever its level.
function renderChart (runs, targets) {
  const lines = ['Responses per second in each target\'s median round, warm-up | measured',
    `(each row scaled to its own peak; ${NO_RESPONSE} = none that second):`]
  const width = Math.max(...targets.map((t) => t.length))
  for (const target of targets) {
    const run = medianRound(runs.filter((r) => r.target === target))
    if (!run || run.perSecond.length === 0) continue
    const warmup = run.warmupPerSecond || []
    const peak = Math.max(...warmup, ...run.perSecond)
    const bar = (n) => n === 0 ? NO_RESPONSE : BARS[Math.floor(n / peak * (BARS.length - 1))]
    const bars = `${warmup.map(bar).join('')}|${run.perSecond.map(bar).join('')}`
    const first = run.perSecond[0]
    const last = run.perSecond[run.perSecond.length - 1]
    lines.push(`  ${target.padEnd(width)}  ${bars}  measured ${integer(first)} -> ${integer(last)} /s (round ${run.round})`)
  }
  return lines.join('\n')
}

// Everything below the protocol and the rounds, as bench/index.js prints it: a block each.
function renderResults (results) {
  return [
    renderTable(results.summaries),
    renderRatios(results.ratios, results.baseline),
    renderChart(results.runs, results.protocol.targets),
    ...(results.baselineReport ? [renderBaselineReport(results.baselineReport)] : []),
    ...(results.warnings.length > 0 ? [`Note:\n${results.warnings.map((w) => `  - ${w}`).join('\n')}`] : [])
  ]
}

// The run's last words: what a participant reads aloud first (how the case study's variants fare as
// they run, whether the goals hold), then the figures it stands on, on their own lines.
function renderVerdict (results) {
  const { paces, goals, short, failedChecks, otherFailures } = judgeRun(results)
  const [falling, steady] = [paces.filter((p) => p.falls), paces.filter((p) => !p.falls)].map((ps) => ps.map((p) => p.target))
  const sentences = [
    ...(falling.length > 0 ? [`${listed(falling)} ${falling.length === 1 ? 'falls as it runs' : 'fall as they run'}.`] : []),
    ...(steady.length > 0 ? [`${listed(steady)} ${steady.length === 1 ? 'stays' : 'stay'} flat.`] : []),
    ...(short.length > 0 ? [`${listed(short.map((r) => r.name))} ${short.length === 1 ? 'falls short of its goal' : 'fall short of their goals'}.`] : []),
    ...(failedChecks.length > 0 ? [`${counted(failedChecks.length, 'check')} ${failedChecks.length === 1 ? 'fails' : 'fail'}.`] : []),
    ...(otherFailures.length > 0 ? [`${counted(otherFailures.length, 'more failure')} below.`] : []),
    ...(short.length + failedChecks.length + otherFailures.length === 0 ? [goals.length > 0 ? 'Every goal holds.' : 'Every check holds.'] : [])
  ]
  const headline = results.ratios.find((r) => r.goal === null && Number.isFinite(r.value))
  const figures = [...(headline ? [headline] : []), ...goals].map(figureOf)
  return [
    wrapLine('', sentences.join(' ')),
    ...packed(figures, '  '),
    ...failedChecks.map((check) => wrapLine('  - ', check))
  ].join('\n')
}

// `cpu slow/fast: 169x (goal >= 100)`, or `fast/slow: 197x req/s` for a throughput without a goal.
function figureOf (r) {
  const unit = r.metric === 'requestsPerSecond' && r.goal === null ? ' req/s' : ''
  const goal = r.goal === null ? '' : ` (goal ${r.better === 'lower' ? '<=' : '>='} ${r.goal}${r.holds === false ? ', short' : ''})`
  return `${r.name}: ${ratioValueText(r)}x${unit}${goal}`
}

// Figures side by side, three spaces apart, as many to a line as fit in LINE_WIDTH.
function packed (items, indent) {
  const lines = []
  for (const item of items) {
    const last = lines.length - 1
    if (last >= 0 && lines[last].length + 3 + item.length <= LINE_WIDTH) lines[last] += `   ${item}`
    else lines.push(indent + item)
  }
  return lines
}

const listed = (names) => names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
const counted = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`

module.exports = { SUMMARY_COLUMNS, renderProtocol, renderTable, renderRatios, renderBaselineReport, renderChart, renderResults, renderVerdict }
