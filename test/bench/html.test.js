'use strict'

// The benchmark's HTML page (bench/print/html/page.js), rendered from a stored
// result of a real `npm start` (test/bench/fixtures/bench-start-run.json, 2 x AMD
// EPYC, Node 24.21.0): it holds the run's figures and loads nothing from
// anywhere, and it draws every one of them, made-up edges too (a latency
// of 0, a second without a response, one target). test/bench/
// html-browser.test.js opens such pages in Chromium.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { renderHtml, chartData } = require('../../bench/print/html/page')
const { logAxis, drawnAt } = require('../../bench/print/html/log-axis')
const { everyEdge, oneTarget } = require('./fixtures/made-up-runs')

const RUN = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'bench-start-run.json'), 'utf8'))
const html = renderHtml(RUN)

t.test('the page names nothing external to load', async (t) => {
  t.notMatch(html, /<(script|img|iframe|audio|video|source)\b[^>]*\bsrc=/i, 'no src attribute')
  t.notMatch(html, /<link\b/i, 'no link element')
  t.notMatch(html, /@import|url\(\s*['"]?(https?:|\/\/)/i, 'no stylesheet import or remote url()')
  t.notMatch(html, /\b(fetch|XMLHttpRequest|importScripts)\s*\(/, 'no script fetches')
  t.match(html, /^<!doctype html>/, 'a whole document')
})

t.test("the embedded figures are the run's", async (t) => {
  const embedded = JSON.parse(/<script type="application\/json" id="run">([\s\S]*?)<\/script>/.exec(html)[1])
  t.same(embedded, JSON.parse(JSON.stringify(chartData(RUN))), 'what the charts draw')
  t.same(embedded.targets, RUN.protocol.targets)
  for (const target of RUN.protocol.targets) {
    const own = RUN.runs.filter((r) => r.target === target)
    const drawn = embedded.perSecond.series[target].filter((v) => v !== null)
    t.ok(own.some((r) => r.perSecond.length + r.warmupPerSecond.length === drawn.length), `${target}: one of its rounds, second by second`)
  }
  t.same(embedded.leak.map((l) => l.target), ['slow'], 'the leak chart for slow, the one leaking target')
  const [lastServed] = embedded.leak[0].points.at(-1)
  t.ok(RUN.runs.some((r) => r.target === 'slow' && r.warmupPerSecond.concat(r.perSecond).reduce((a, b) => a + b, 0) === lastServed), 'its x is the requests served so far')
})

t.test('the ratio table holds every ratio, goal and verdict of the run', async (t) => {
  for (const ratio of RUN.ratios) {
    const row = new RegExp(`<th scope="row">${ratio.name.replace(/[/]/g, '\\/')}</th><td data-ratio="[^"]+" data-value="([^"]+)">[^<]+</td><td>([^<]*)</td><td>([^<]*)</td>`).exec(html)
    t.ok(row, `${ratio.name} has a row`)
    if (!row) continue
    t.equal(Number(row[1]), ratio.value, `${ratio.name}: the value`)
    t.equal(row[3], ratio.holds === null ? '' : ratio.holds ? 'holds' : 'SHORT', `${ratio.name}: the verdict`)
    if (ratio.goal !== null) t.match(row[2], String(ratio.goal), `${ratio.name}: the goal`)
  }
})

t.test('the protocol, the machine and every figure table are there', async (t) => {
  t.match(html, `${RUN.machine.cores} x ${RUN.machine.cpuModel}`)
  t.match(html, RUN.machine.node)
  t.match(html, `autocannon -c ${RUN.protocol.connections}`)
  for (const id of ['throughput', 'leak', 'cpu', 'latency', 'ratios', 'protocol']) t.match(html, `<section id="${id}"`, id)
  for (const summary of RUN.summaries) t.match(html, `<th scope="row">${summary.target}</th>`, summary.target)
  for (const warning of RUN.warnings) t.match(html, warning.replace(/&/g, '&amp;'), 'the spread notes')
})

t.test('a run without a leaking target has no leak chart', async (t) => {
  const targets = ['fixed', 'node-http']
  const run = { ...RUN, protocol: { ...RUN.protocol, targets }, runs: RUN.runs.filter((r) => targets.includes(r.target)), summaries: RUN.summaries.filter((s) => targets.includes(s.target)), ratios: [] }
  const page = renderHtml(run)
  t.notMatch(page, '<section id="leak"')
  t.same(chartData(run).leak, [])
})

// The made-up runs (fixtures/made-up-runs.js): every figure a run can
// produce that a logarithmic axis has no place for, or that one marker
// could hide under another.
const EDGES = everyEdge(RUN)
const PERCENTILES = [['p50', 'latencyP50'], ['p97.5', 'latencyP975'], ['p99', 'latencyP99']]

// The latency chart's points: { label, x, y } for every value drawn.
function latencyPoints ({ latency }) {
  return latency.series.flatMap(({ label, values }) => values.flatMap((y, n) => y === null ? [] : [{ label, x: latency.x[n], y }]))
}

t.test('every latency is drawn, 0 at a floor marked < 1 ms, equal percentiles side by side', async (t) => {
  const data = chartData(EDGES)
  const { y } = data.latency
  const points = latencyPoints(data)
  for (const [i, summary] of EDGES.summaries.entries()) {
    for (const [label, key] of PERCENTILES) {
      const own = points.filter((p) => p.label === label && Math.round(p.x) === i)
      if (summary.responses === 0) {
        t.same(own, [], `${summary.target} served nothing: no ${label}, not autocannon's 0 of an empty histogram`)
        continue
      }
      t.equal(own.length, 1, `${summary.target}: its ${label} drawn`)
      t.equal(own[0]?.y, summary[key] === 0 ? y.floor : summary[key], `${summary.target}: its ${label} (${summary[key]} ms) where it is`)
      t.ok(own[0]?.y > y.range[0] && own[0]?.y < y.range[1], `${summary.target}: its ${label} within the axis`)
    }
  }
  const measured = EDGES.summaries.filter((s) => s.responses !== 0).flatMap((s) => PERCENTILES.map(([, key]) => s[key]))
  t.ok(measured.includes(0) && measured.includes(0.5), 'the run has latencies of 0 and of half a millisecond')
  t.ok(y.floor > 0 && y.floor < Math.min(...measured.filter((v) => v > 0)), `the floor (${y.floor}) below every measured latency`)
  t.same(y.ticks.filter(([at]) => at <= y.floor), [[y.floor, '< 1 ms']], 'the floor says what a 0 is, and no tick is under it')
  // A marker is 11 px wide, a target's place about 100 px on a page with
  // twelve targets: 0.2 of a place apart, two points never touch.
  const touching = points.filter((a, i) => points.some((b, j) => j !== i && a.y === b.y && Math.abs(a.x - b.x) < 0.2))
  t.same(touching, [], 'no point on or against another of the same value')
  t.match(data.perTarget.labels[EDGES.summaries.findIndex((s) => s.responses === 0)], /\(no responses\)$/, 'the target that served nothing says so')
})

t.test('a second without a response and a CPU time of 0 are drawn at the floor, marked 0', async (t) => {
  const { perSecond, cpu } = chartData(EDGES)
  t.ok(perSecond.y, 'the targets are far apart: a logarithmic axis')
  t.same(perSecond.y.ticks[0], [perSecond.y.floor, '0'], 'its floor marked 0')
  for (const target of EDGES.protocol.targets) {
    const drawn = perSecond.series[target].filter((v) => v !== null)
    const rounds = EDGES.runs.filter((r) => r.target === target).map((r) => [...r.warmupPerSecond, ...r.perSecond])
    t.ok(rounds.some((seconds) => seconds.length === drawn.length && seconds.every((count, i) => drawn[i] === (count === 0 ? perSecond.y.floor : count))),
      `${target}: every second of one of its rounds, a 0 at the floor`)
  }
  t.ok(perSecond.series.slow.includes(perSecond.y.floor), 'slow\'s second without a response is there')
  t.same(cpu.y.ticks[0], [cpu.y.floor, '0'], 'the CPU axis\'s floor marked 0')
  t.same(cpu.values, EDGES.summaries.map((s) => s.cpuMicrosPerRequest === null ? null : s.cpuMicrosPerRequest === 0 ? cpu.y.floor : s.cpuMicrosPerRequest),
    'every CPU time drawn, 0 at the floor, none for the target that served nothing')
})

t.test('a run of one target is drawn, its percentiles side by side within its place', async (t) => {
  const run = oneTarget(EDGES, 'fixed')
  const data = chartData(run)
  const points = latencyPoints(data)
  t.same(points.map((p) => p.label), ['p50', 'p97.5', 'p99'], 'its three percentiles')
  t.ok(points.every((p) => Math.abs(p.x) < 0.5), 'all at its place')
  t.same(data.cpu.values, [run.summaries[0].cpuMicrosPerRequest], 'its CPU time')
  t.same(Object.keys(data.perSecond.series), ['fixed'], 'its seconds')
  t.notMatch(renderHtml(run), '<section id="leak"', 'no leak chart')
})

t.test('the latency table says what the chart says: < 1 for a 0, n/a for a target that served nothing', async (t) => {
  const page = renderHtml(EDGES)
  const latencyRow = (target) => new RegExp(`<th scope="row">${target}</th>((?:<td>[^<]*</td>){3})</tr>`).exec(page.slice(page.indexOf('<section id="latency"')))?.[1]
  t.equal(latencyRow('fast'), '<td>&lt; 1</td><td>&lt; 1</td><td>&lt; 1</td>', 'within a millisecond at every percentile')
  t.equal(latencyRow('fixed'), '<td>&lt; 1</td><td>1.00</td><td>1.00</td>', 'p97.5 = p99')
  t.equal(latencyRow('fixed-304'), '<td>0.50</td><td>1.00</td><td>1.00</td>', 'half a millisecond, a median of 0 and 1')
  t.equal(latencyRow('node-http'), '<td>n/a</td><td>n/a</td><td>n/a</td>', 'no latency where no response')
})

t.test('a logarithmic axis of zeros only, or of no figure at all', async (t) => {
  const zeros = logAxis([0, 0, null], '< 1 ms')
  t.same(zeros.ticks, [[zeros.floor, '< 1 ms']], 'zeros: the floor, and no round tick where no figure is')
  t.ok(zeros.range[0] < zeros.floor && zeros.floor < zeros.range[1], 'zeros: the floor within the axis')
  const none = logAxis([null], '0')
  t.equal(none.floor, null, 'no figure: no floor')
  t.ok(none.range[0] > 0 && none.range[0] < none.range[1], 'no figure: still an axis')
  t.equal(drawnAt(null, none), null, 'no figure, nothing drawn')
})
