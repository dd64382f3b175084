'use strict'

// The benchmark's HTML page (bench/print/html/page.js), rendered from a stored
// result of a real `npm start` (test/bench/fixtures/bench-start-run.json, 2 x AMD
// EPYC, Node 24.21.0): it holds the run's figures and loads nothing from
// anywhere. test/bench/html-browser.test.js opens one in Chromium.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { renderHtml, chartData } = require('../../bench/print/html/page')

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
