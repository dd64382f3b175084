'use strict'

// A benchmark run as one self-contained HTML page, for a projector, a CI artifact or a browser
// with no network: uPlot, client.js and the run are inline, and the page loads nothing. uPlot is
// small and made for long time series; its charts are canvases, which a screen reader cannot
// read, so each has a label and the same figures in a plain table under it.

const fs = require('node:fs')
const path = require('node:path')

const { medianRound } = require('../../judge/stats')
const { SPREAD_WORTH_A_WORD } = require('../../judge/evaluate')
const { describeLoad, describeCores } = require('../machine')
const { integer, figureColumn, ratioText, ratioValueText, goalText } = require('../numbers')
const { escapeHtml, jsonForScript, htmlPage } = require('../../../tooling/html-text')
const { logAxis, drawnAt } = require('./log-axis')

const UPLOT_DIR = path.dirname(require.resolve('uplot/dist/uPlot.iife.min.js'))

// The latency chart's series, offset side by side from the target's place so that equal
// percentiles (p97.5 = p99) all show, not one dot drawn over the others.
const PERCENTILES = [
  { label: 'p50', key: 'latencyP50', offset: -0.22 },
  { label: 'p97.5', key: 'latencyP975', offset: 0 },
  { label: 'p99', key: 'latencyP99', offset: 0.22 }
]
// autocannon counts whole milliseconds, so a response within one reads 0.
const UNDER_A_MILLISECOND = '< 1 ms'

// The page's HTML text for `results`, a bench --json result.
function renderHtml (results) {
  const title = `Benchmark, mode ${results.mode}: ${results.protocol.targets.join(', ')}`
  const inline = (file) => fs.readFileSync(file, 'utf8')
  return htmlPage({
    title,
    styles: [inline(path.join(UPLOT_DIR, 'uPlot.min.css')), inline(path.join(__dirname, 'page.css'))],
    body: `<header>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(describeRun(results))}</p>
</header>
<main>
${section('throughput', 'Requests per second, second by second',
  `Each target's median round (by req/s): its warm-up left of 0, its measured window from 0.${leakingNote(results)} The vertical axis is logarithmic when the targets are far apart, a second without a response then drawn at its foot, marked 0.`,
  perSecondTable(results))}
${leakingTargets(results).length > 0
  ? section('leak', 'The leak: requests per second against the listeners',
    'A leaking target adds one after listener per request it serves, so the requests served so far count its listeners: each point is one second of its median round.',
    leakTable(results))
  : ''}
${section('cpu', 'CPU time per request', 'The server\'s own user + system CPU time over the measured window, divided by its responses (median of the rounds; logarithmic axis). Lower is better.', summaryTable(results, ['cpuMicrosPerRequest', 'requestsPerSecond']))}
${section('latency', 'Latency', 'p50, p97.5 and p99 of each target\'s responses, in milliseconds (median of the rounds; logarithmic axis), side by side. autocannon counts whole milliseconds, so a response within one reads 0: drawn at the foot of the axis, marked < 1 ms.', latencyTable(results))}
<section id="ratios"><h2>Ratios and goals</h2>
${ratioTable(results)}
${notes(results)}
</section>
<section id="protocol"><h2>Protocol and machine</h2>
${protocolList(results)}
</section>
</main>
<script type="application/json" id="run">${jsonForScript(chartData(results))}</script>
<script>${inline(path.join(UPLOT_DIR, 'uPlot.iife.min.js'))}</script>
<script>${inline(path.join(__dirname, 'client.js'))}</script>`
  })
}

// What the charts draw, computed here so the browser only plots. Each `y` is a logarithmic
// axis (log-axis.js, a 0 drawn at its floor), or null for a linear one.
function chartData (results) {
  const targets = results.protocol.targets
  return { targets, perSecond: perSecondDrawn(results), leak: leakSeries(results), ...perTargetDrawn(results.summaries) }
}

// Each target's median round (by req/s), by target.
function medianRounds (results) {
  return Object.fromEntries(results.protocol.targets.map((target) => [target, medianRound(results.runs.filter((r) => r.target === target))]))
}

// Every target's responses per second of its median round on one x axis: warm-up left of 0,
// measured window from 0, null where it has no such second.
function secondBySecond (results) {
  const targets = results.protocol.targets
  const rounds = medianRounds(results)
  const warm = Math.max(0, ...targets.map((t) => rounds[t]?.warmupPerSecond.length ?? 0))
  const measured = Math.max(0, ...targets.map((t) => rounds[t]?.perSecond.length ?? 0))
  const x = Array.from({ length: warm + measured }, (_, i) => i - warm)
  const series = Object.fromEntries(targets.map((target) => {
    const run = rounds[target]
    const values = x.map(() => null)
    if (run) {
      run.warmupPerSecond.forEach((count, i) => { values[warm - run.warmupPerSecond.length + i] = count })
      run.perSecond.forEach((count, i) => { values[warm + i] = count })
    }
    return [target, values]
  }))
  return { x, series }
}

// Logarithmic when the targets are far apart.
function perSecondDrawn (results) {
  const { x, series } = secondBySecond(results)
  const all = Object.values(series).flat()
  const y = spreadsWide(all) ? logAxis(all, '0') : null
  const drawn = (values) => y ? values.map((v) => drawnAt(v, y)) : values
  return { x, series: Object.fromEntries(Object.entries(series).map(([target, values]) => [target, drawn(values)])), y }
}

function spreadsWide (values) {
  const positives = values.filter((v) => v > 0)
  return positives.length > 1 && Math.max(...positives) / Math.min(...positives) > 20
}

// A place per target (x is its index): the CPU bars, and a latency series per percentile with
// each target's point at its index plus the percentile's offset.
function perTargetDrawn (summaries) {
  const labels = summaries.map((s) => answered(s) ? s.target : `${s.target}\n(no responses)`)
  const cpuFigures = summaries.map((s) => s.cpuMicrosPerRequest)
  const cpuAxis = logAxis(cpuFigures, '0')
  const latencies = PERCENTILES.map(({ key }) => summaries.map((s) => answered(s) ? s[key] : null))
  const latencyAxis = logAxis(latencies.flat(), UNDER_A_MILLISECOND)
  const x = summaries.flatMap((_, i) => PERCENTILES.map(({ offset }) => i + offset))
  const series = PERCENTILES.map(({ label }, p) => ({
    label,
    values: x.map((_, n) => n % PERCENTILES.length === p ? drawnAt(latencies[p][Math.floor(n / PERCENTILES.length)], latencyAxis) : null)
  }))
  return {
    perTarget: { targets: summaries.map((s) => s.target), labels },
    cpu: { values: cpuFigures.map((v) => drawnAt(v, cpuAxis)), y: cpuAxis },
    latency: { x, series, y: latencyAxis }
  }
}

// A target that served no response has no latency: autocannon's 0 for it
// is its empty histogram's, not a response within a millisecond.
function answered (summary) {
  return summary.responses !== 0
}

function leakSeries (results) {
  const rounds = medianRounds(results)
  return leakingTargets(results).map((target) => ({ target, points: leakPoints(rounds[target]) }))
}

// [requests served by the end of the second, responses in that second].
function leakPoints (run) {
  if (!run) return []
  let served = 0
  return [...run.warmupPerSecond, ...run.perSecond].map((count) => {
    served += count
    return [served, count]
  })
}

function leakingTargets (results) {
  return results.protocol.targets.filter((target) => results.targets[target]?.leaking)
}

function leakingNote (results) {
  const leaking = leakingTargets(results)
  if (leaking.length === 0) return ''
  return ` ${leaking.join(', ')} ${leaking.length === 1 ? 'is' : 'are'} warmed up and measured by request counts (${results.protocol.warmupRequests} then ${results.protocol.requests}), so ${leaking.length === 1 ? 'its' : 'their'} windows last as long as the machine takes.`
}

function section (id, title, description, figures) {
  return `<section id="${id}" class="chart-section"><h2>${escapeHtml(title)}</h2>
<p class="description">${escapeHtml(description)}</p>
<div class="chart" id="chart-${id}" role="img" aria-label="${escapeHtml(`${title}: the table under the chart has its figures`)}"></div>
${figures}
</section>`
}

function perSecondTable (results) {
  const { x, series } = secondBySecond(results)
  const head = `<tr><th scope="col">target</th>${x.map((s) => `<th scope="col">${s < 0 ? `w${s}` : s}</th>`).join('')}</tr>`
  const rows = results.protocol.targets.map((target) =>
    `<tr><th scope="row">${escapeHtml(target)}</th>${series[target].map((v) => `<td>${v === null ? '' : integer(v)}</td>`).join('')}</tr>`)
  return table('Responses in each second; columns w-N are warm-up seconds, 0 on the measured window.', head, rows, 'wide')
}

function leakTable (results) {
  const rows = leakSeries(results).flatMap(({ target, points }) =>
    points.map(([served, rps]) => `<tr><th scope="row">${escapeHtml(target)}</th><td>${integer(served)}</td><td>${integer(rps)}</td></tr>`))
  return table('Requests served so far (its listeners) and responses in that second.', '<tr><th scope="col">target</th><th scope="col">served</th><th scope="col">req/s</th></tr>', rows)
}

// `keys` are rows of bench/protocol/metrics.js, written as the terminal's table writes them.
function summaryTable (results, keys) {
  return medianTable(results, keys.map(figureColumn), 'Medians over the rounds.')
}

function latencyTable (results) {
  const columns = PERCENTILES.map(({ key }) => {
    const { title, value } = figureColumn(key)
    return { title, value: (s) => !answered(s) ? 'n/a' : s[key] === 0 ? '< 1' : value(s) }
  })
  return medianTable(results, columns, 'Medians over the rounds; < 1 is a response within a millisecond, which autocannon reads as 0.')
}

function medianTable (results, columns, caption) {
  const head = `<tr><th scope="col">target</th>${columns.map(({ title }) => `<th scope="col">${escapeHtml(title)}</th>`).join('')}</tr>`
  const rows = results.summaries.map((s) => `<tr><th scope="row">${escapeHtml(s.target)}</th>${columns.map(({ value }) => `<td>${escapeHtml(value(s))}</td>`).join('')}</tr>`)
  return table(caption, head, rows)
}

function ratioTable (results) {
  const head = '<tr><th scope="col">ratio</th><th scope="col">value</th><th scope="col">goal</th><th scope="col">verdict</th><th scope="col">pairs (one per round)</th></tr>'
  const rows = results.ratios.map((r) => {
    const verdict = r.holds === null ? '' : r.holds ? 'holds' : 'SHORT'
    return `<tr class="${r.holds === false ? 'short' : ''}"><th scope="row">${escapeHtml(r.name)}</th><td data-ratio="${escapeHtml(r.name)}" data-value="${r.value}">${ratioValueText(r)}</td>` +
      `<td>${goalText(r)}</td><td>${verdict}</td><td>${r.pairs.map(ratioText).join(', ')}</td></tr>`
  })
  return table('A ratio is the median of its pairs; each pair is measured within one round.', head, rows)
}

function notes (results) {
  const lines = [...(results.failures ?? []).map((f) => `Failed: ${f}`), ...(results.warnings ?? [])]
  if (lines.length === 0) return `<p>No failures; no target's rounds disagreed by more than ${SPREAD_WORTH_A_WORD * 100} %.</p>`
  return `<ul class="notes">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`
}

function protocolList (results) {
  const { protocol: p, machine: m } = results
  const items = [
    ['targets', p.targets.map((t) => `${t}${results.targets[t]?.about ? ` (${results.targets[t].about})` : ''}`).join('; ')],
    ['load', `autocannon -c ${p.connections}; ${p.warmup} s warm-up, then ${p.duration} s measured; ${p.rounds} round(s), the order reversed every other round; each target in a fresh process on 127.0.0.1`],
    ...(leakingTargets(results).length > 0 ? [['by request counts', `${leakingTargets(results).join(', ')}: ${p.warmupRequests} requests warm-up, then ${p.requests} measured`]] : []),
    ['machine', `${describeCores(m)}, ${m.memoryGiB} GiB, ${m.platform}` +
      (describeLoad(m) === '' ? '' : `; ${describeLoad(m)} at the start`)],
    ['Node', m.node],
    ...(results.versions ? [['versions', Object.entries(results.versions).map(([name, version]) => `${name} ${version}`).join(', ')]] : []),
    ['run', `${results.started} to ${results.finished}`],
    ...(results.commit ? [['commit', results.commit]] : [])
  ]
  return `<dl>${items.map(([term, text]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(text)}</dd>`).join('')}</dl>`
}

function describeRun (results) {
  const { machine: m } = results
  return `${m.cores} x ${m.cpuModel}, Node ${m.node}, ${results.started.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}` +
    `${results.commit ? `, commit ${results.commit.slice(0, 12)}` : ''}. ${verdictOf(results)}`
}

function verdictOf (results) {
  const failures = results.failures ?? []
  const short = results.ratios.filter((r) => r.holds === false).length
  if (failures.length > 0) return `The run failed: ${failures.length} goal(s) or check(s) missed, listed under the ratios.`
  if (short > 0) return `${short} ratio(s) short of their goals, shown but not enforced in mode ${results.mode}.`
  return results.ratios.some((r) => r.holds === true) ? 'Every goal holds.' : 'No goal in this mode.'
}

function table (caption, head, rows, extraClass = '') {
  return `<div class="figures ${extraClass}"><table><caption>${escapeHtml(caption)}</caption><thead>${head}</thead><tbody>${rows.join('\n')}</tbody></table></div>`
}

module.exports = { renderHtml, chartData }
