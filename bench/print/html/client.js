/* global uPlot, document, window, matchMedia */
/* eslint new-cap: ["error", { "newIsCapExceptions": ["uPlot"] }] */
'use strict'

// Runs in the report page (page.js inlines it after uPlot): draws the
// charts from the run's figures in <script id="run">. Each target keeps its
// colour on every chart; colours are Okabe and Ito's, told apart with the
// common kinds of colour blindness.

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

// A positive value or nothing: a logarithmic axis has no place for 0.
function positive (value) {
  return value > 0 ? value : null
}

function spreadsWide (values) {
  const finite = values.filter((v) => v > 0)
  return finite.length > 1 && Math.max(...finite) / Math.min(...finite) > 20
}

function throughputChart () {
  const element = document.getElementById('chart-throughput')
  const { x, series } = run.perSecond
  const all = run.targets.flatMap((t) => series[t])
  const log = spreadsWide(all)
  return new uPlot({
    width: width(element),
    height: 420,
    scales: { x: { time: false }, y: log ? { distr: 3 } : {} },
    axes: [axis('seconds (warm-up < 0 ≤ measured)'), axis('responses per second', { size: 80 })],
    series: [{ label: 's' }, ...run.targets.map((target) => ({ label: target, stroke: colourOf[target], width: 2.5, spanGaps: false, points: { show: true, size: 5, fill: colourOf[target] } }))],
    plugins: [markMeasuredStart()]
  }, [x, ...run.targets.map((t) => series[t].map((v) => log ? positive(v) : v))], element)
}

// A vertical line at 0, where the measured window begins.
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

// A chart with one position per target (x is the target's index). `series`
// are [{ label, style, values }], each `values` one per target (null: none).
function perTargetChart (id, yLabel, series) {
  const element = document.getElementById(`chart-${id}`)
  const targets = run.summaries.map((s) => s.target)
  const x = targets.map((_, i) => i)
  return new uPlot({
    width: width(element),
    height: 400,
    scales: { x: { time: false, range: [-0.6, targets.length - 0.4] }, y: { distr: 3 } },
    axes: [
      axis('', { splits: () => x, values: (u, splits) => splits.map((i) => targets[i] ?? ''), gap: 8, size: 60 }),
      axis(yLabel, { size: 80 })
    ],
    series: [{ label: 'target' }, ...series.map(({ label, style }) => ({ label, ...style }))]
  }, [x, ...series.map(({ values }) => values.map(positive))], element)
}

function cpuChart () {
  // One series per target, each with a value at its own position only, so
  // each bar has its target's colour.
  const bars = uPlot.paths.bars({ size: [0.6, 90] })
  return perTargetChart('cpu', 'CPU µs per request', run.summaries.map((s, i) => ({
    label: s.target,
    style: { fill: colourOf[s.target], stroke: colourOf[s.target], paths: bars, points: { show: false } },
    values: run.summaries.map((_, j) => j === i ? s.cpu : null)
  })))
}

function latencyChart () {
  const dots = (size, fill) => ({ paths: () => null, points: { show: true, size, fill, stroke: ink, width: 1 } })
  return perTargetChart('latency', 'latency, ms', [
    ['p50', 'p50', '#0072B2', 9],
    ['p97.5', 'p975', '#E69F00', 12],
    ['p99', 'p99', '#D55E00', 15]
  ].map(([label, key, colour, size]) => ({ label, style: { stroke: colour, ...dots(size, colour) }, values: run.summaries.map((s) => s[key]) })))
}

const charts = [throughputChart(), leakChart(), cpuChart(), latencyChart()].filter(Boolean)
window.addEventListener('resize', () => {
  for (const chart of charts) chart.setSize({ width: width(chart.root.parentElement), height: chart.height })
})
// What the page drew, for anyone (a test, a reader of the console) asking.
window.reportCharts = charts
