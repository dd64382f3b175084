/* global uPlot, document, window, matchMedia */
/* eslint new-cap: ["error", { "newIsCapExceptions": ["uPlot"] }] */
'use strict'

// Runs in the history page (page.js inlines it after uPlot): a chart a series from
// <script id="history">, each change point a vertical line (dashed: weak) where its first
// point after the change is drawn.

const dark = matchMedia('(prefers-color-scheme: dark)').matches
const ink = dark ? '#e6edf3' : '#1b1f24'
const grid = dark ? '#30363d' : '#d0d7de'
const LINE = '#0072B2'
const MARK = '#D55E00'

function axis (label, extra = {}) {
  return { label, stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid }, font: '14px system-ui', labelFont: '15px system-ui', ...extra }
}

function markChanges (changes) {
  return {
    hooks: {
      draw: (u) => {
        const ctx = u.ctx
        ctx.save()
        ctx.strokeStyle = MARK
        ctx.lineWidth = 3
        for (const change of changes) {
          // Half-way between the last point before and the first after.
          const x = u.valToPos(change.index - 0.5, 'x', true)
          ctx.setLineDash(change.weak ? [8, 6] : [])
          ctx.beginPath()
          ctx.moveTo(x, u.bbox.top)
          ctx.lineTo(x, u.bbox.top + u.bbox.height)
          ctx.stroke()
        }
        ctx.restore()
      }
    }
  }
}

function chart (series) {
  const element = document.getElementById(series.id)
  const x = series.values.map((value, i) => i)
  return new uPlot({
    width: Math.max(320, element.clientWidth || 900),
    height: 360,
    scales: { x: { time: false } },
    axes: [axis('recorded commits, oldest first'), axis('instructions per request', { size: 90 })],
    series: [{ label: 'commit' }, { label: series.label, stroke: LINE, width: 2, points: { show: true, size: 6, fill: LINE } }],
    plugins: [markChanges(series.changes)]
  }, [x, series.values], element)
}

window.historyCharts = JSON.parse(document.getElementById('history').textContent).map(chart)
