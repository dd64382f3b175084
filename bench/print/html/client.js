/* global uPlot, document, window, matchMedia */
/* eslint new-cap: ["error", { "newIsCapExceptions": ["uPlot"] }] */
'use strict'

// Runs in the report page (page.js inlines it after uPlot): draws the charts from <script id="run">.
// Each target keeps its colour on every chart; Okabe and Ito's colours survive common colour blindness.

const PALETTE = ['#E69F00', '#56B4E9', '#009E73', '#D55E00', '#0072B2', '#CC79A7', '#F0E442', '#999999', '#8C564B', '#17BECF', '#7F7F7F', '#BCBD22']
const run = JSON.parse(document.getElementById('run').textContent)
const colourOf = Object.fromEntries(run.targets.map((target, i) => [target, PALETTE[i % PALETTE.length]]))
const dark = matchMedia('(prefers-color-scheme: dark)').matches
const ink = dark ? '#e6edf3' : '#1b1f24'
const grid = dark ? '#30363d' : '#d0d7de'

function axis (label, extra = {}) {
  return { label, stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid }, font: '14px system-ui', labelFont: '15px system-ui', ...extra }
}

function width (element) {
  return Math.max(320, element.clientWidth || 900)
}

// `y` is a logarithmic axis page.js laid out (log-axis.js), or null for uPlot's linear one.
function yScale (y) {
  return y ? { distr: 3, range: y.range } : {}
}

function yAxis (label, y) {
  if (!y) return axis(label, { size: 80 })
  const labels = new Map(y.ticks)
  return axis(label, { size: 80, splits: () => y.ticks.map(([at]) => at), filter: (u, splits) => splits, values: (u, splits) => splits.map((at) => labels.get(at) ?? '') })
}

// At the floor, the legend says what a zero stands for.
function legendValue (y) {
  return (u, value) => value === null || value === undefined ? '—' : y && value === y.floor ? y.zeroLabel : value.toLocaleString('en-US', { maximumFractionDigits: 2 })
}

function throughputChart () {
  const element = document.getElementById('chart-throughput')
  const { x, series, y } = run.perSecond
  return new uPlot({
    width: width(element),
    height: 420,
    scales: { x: { time: false }, y: yScale(y) },
    axes: [axis('seconds (warm-up < 0 ≤ measured)'), yAxis('responses per second', y)],
    series: [{ label: 's' }, ...run.targets.map((target) => ({ label: target, stroke: colourOf[target], width: 2.5, spanGaps: false, value: legendValue(y), points: { show: true, size: 5, fill: colourOf[target] } }))],
    plugins: [markMeasuredStart()]
  }, [x, ...run.targets.map((t) => series[t])], element)
}

function markMeasuredStart () {
  return {
    hooks: {
      draw: (u) => {
        const ctx = u.ctx
        const left = u.valToPos(0, 'x', true)
        ctx.save()
        ctx.strokeStyle = ink
        ctx.setLineDash([6, 6])
        ctx.beginPath()
        ctx.moveTo(left, u.bbox.top)
        ctx.lineTo(left, u.bbox.top + u.bbox.height)
        ctx.stroke()
        ctx.restore()
      }
    }
  }
}

function leakChart () {
  const element = document.getElementById('chart-leak')
  if (!element || run.leak.length === 0) return null
  // One x axis for every leaking target: the union of their request counts.
  const xs = [...new Set(run.leak.flatMap(({ points }) => points.map(([served]) => served)))].sort((a, b) => a - b)
  const data = [xs, ...run.leak.map(({ points }) => {
    const at = new Map(points)
    return xs.map((served) => at.has(served) ? at.get(served) : null)
  })]
  return new uPlot({
    width: width(element),
    height: 380,
    scales: { x: { time: false } },
    axes: [axis('requests served so far = after listeners'), axis('responses per second', { size: 80 })],
    series: [{ label: 'served' }, ...run.leak.map(({ target }) => ({ label: target, stroke: colourOf[target], width: 2.5, spanGaps: true, points: { show: true, size: 7, fill: colourOf[target] } }))]
  }, data, element)
}

// A place per target: x is the target's index, a point beside it at a fraction.
// `series` are [{ label, style, values }], one value (or null) per x.
function perTargetChart (id, yLabel, y, x, series) {
  const element = document.getElementById(`chart-${id}`)
  const { labels } = run.perTarget
  const places = labels.map((_, i) => i)
  return new uPlot({
    width: width(element),
    height: 400,
    scales: { x: { time: false, range: [-0.6, labels.length - 0.4] }, y: yScale(y) },
    axes: [
      axis('', { splits: () => places, values: (u, splits) => splits.map((i) => labels[i] ?? ''), gap: 8, size: 60 }),
      yAxis(yLabel, y)
    ],
    series: [
      { label: 'target', value: (u, at) => labels[Math.round(at)] ?? '—' },
      ...series.map(({ label, style }) => ({ label, value: legendValue(y), ...style }))
    ]
  }, [x, ...series.map(({ values }) => values)], element)
}

function cpuChart () {
  // One series per target, valued at its own place only, so each bar takes its target's colour.
  const bars = uPlot.paths.bars({ size: [0.6, 90] })
  const { targets } = run.perTarget
  const { values, y } = run.cpu
  return perTargetChart('cpu', 'CPU µs per request', y, targets.map((_, i) => i), targets.map((target, i) => ({
    label: target,
    style: { fill: colourOf[target], stroke: colourOf[target], paths: bars, points: { show: false } },
    values: values.map((value, j) => j === i ? value : null)
  })))
}

// Colour and place (page.js sets them side by side) tell percentiles apart, so dots share a size.
const PERCENTILE_COLOURS = { p50: '#0072B2', 'p97.5': '#E69F00', p99: '#D55E00' }

function latencyChart () {
  const { x, series, y } = run.latency
  return perTargetChart('latency', 'latency, ms', y, x, series.map(({ label, values }) => ({
    label,
    style: { stroke: PERCENTILE_COLOURS[label], paths: () => null, points: { show: true, size: 11, fill: PERCENTILE_COLOURS[label], stroke: ink, width: 1 } },
    values
  })))
}

const charts = [throughputChart(), leakChart(), cpuChart(), latencyChart()].filter(Boolean)
window.addEventListener('resize', () => {
  for (const chart of charts) chart.setSize({ width: width(chart.root.parentElement), height: chart.height })
})
// For a test, or a reader of the console.
window.reportCharts = charts
