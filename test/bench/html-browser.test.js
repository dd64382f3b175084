'use strict'

// The benchmark's HTML page in a real browser: a short real run writes it,
// headless Chromium opens it from disk (test/browser.js) with every request
// but the page's own refused, and every chart must be drawn, in every
// target's colour, with the run's ratios in the table. Skipped, saying why,
// where Chromium is not installed. On every Node line and every machine:
// the page is the run's figures drawn, whatever they are, so the same run
// is drawn again as a machine four times faster would report it (every
// latency 0 or 1 ms), and made-up runs with every other edge
// (fixtures/made-up-runs.js) are drawn beside it.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { noChromium, launchBrowser, openOffline } = require('../browser')
const { ratioValueText } = require('../../bench/print/numbers')
const { renderHtml } = require('../../bench/print/html/page')
const { bench, SHORT } = require('./bench-helper')
const { everyEdge, oneTarget, onFasterMachine } = require('./fixtures/made-up-runs')
const { shownPath } = require('../../tooling/repo')

const skip = noChromium
// A real run of three targets and a browser: 15 to 20 s, and on two cores
// beside other busy processes (load 7) 27 to 30 s, over tap's 30 s.
t.setTimeout(90000)

// The report in `scheme`, opened offline (openOffline), its charts made.
async function openReport (browser, html, scheme) {
  const opened = await openOffline(browser, html, { scheme })
  await opened.page.waitForFunction(() => Array.isArray(window.reportCharts))
  return opened
}

// Each chart of the page: its id, its y axis's labels, and for each series
// its label, how many values it has, how many pixels of the canvas are its
// colour and, for a series of dots (the latencies), the values of those
// whose place has next to none of it: hidden, or never drawn.
function chartsDrawn (page) {
  return page.evaluate(() => window.reportCharts.map((chart) => {
    const id = chart.root.parentElement.id
    const canvas = chart.ctx.canvas
    const pixels = chart.ctx.getImageData(0, 0, canvas.width, canvas.height).data
    const hex = (colour) => [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16))
    // Within a little antialiasing of [r, g, b].
    const near = (i, [r, g, b]) => Math.abs(pixels[i] - r) + Math.abs(pixels[i + 1] - g) + Math.abs(pixels[i + 2] - b) < 30 && pixels[i + 3] > 200
    // Pixels of `rgb` in the 7 x 7 square around a value's place.
    const around = (x, y, rgb) => {
      let count = 0
      for (let dy = -3; dy <= 3; dy++) {
        for (let dx = -3; dx <= 3; dx++) count += near(4 * ((Math.round(y) + dy) * canvas.width + Math.round(x) + dx), rgb) ? 1 : 0
      }
      return count
    }
    const marks = chart.series.slice(1).map((series) => {
      const rgb = hex(series._stroke ?? series.stroke())
      let count = 0
      for (let i = 0; i < pixels.length; i += 4) count += near(i, rgb) ? 1 : 0
      const data = chart.data[chart.series.indexOf(series)]
      const hidden = id === 'chart-latency'
        ? data.filter((v, n) => v !== null && around(chart.valToPos(chart.data[0][n], 'x', true), chart.valToPos(v, 'y', true), rgb) < 20)
        : []
      return { label: series.label, count, values: data.filter((v) => v !== null).length, hidden }
    })
    return { id, yLabels: chart.axes[1]._values ?? [], marks }
  }))
}

const LATENCIES = { p50: 'latencyP50', 'p97.5': 'latencyP975', p99: 'latencyP99' }

// The page `name` in `scheme` against its run `result`: no error, no
// request out, every chart drawn in every target's colour, every latency
// of every target that answered seen, the run's ratios, its background,
// and (`pdf`) that it prints.
async function checkPage (t, page, { name, scheme, result, refused, errors, pdf = false }) {
  const drawn = await chartsDrawn(page)
  const background = await page.evaluate(() => window.getComputedStyle(document.body).backgroundColor)
  const ratios = await page.$$eval('[data-ratio]', (cells) => cells.map((cell) => ({ name: cell.dataset.ratio, value: Number(cell.dataset.value), text: cell.textContent })))
  const leaking = result.protocol.targets.filter((target) => result.targets[target]?.leaking)
  const targets = result.summaries.map((s) => s.target)

  t.same(errors, [], `${name}: no console error`)
  t.same(refused, [], `${name}: no request left the page`)
  t.same(drawn.map((c) => c.id), ['chart-throughput', ...(leaking.length > 0 ? ['chart-leak'] : []), 'chart-cpu', 'chart-latency'], `${name}: its charts`)
  const chart = Object.fromEntries(drawn.map((c) => [c.id, c]))
  t.same(chart['chart-throughput'].marks.map((m) => m.label), result.protocol.targets, `${name}: a line for every target`)
  for (const mark of [...chart['chart-throughput'].marks, ...(chart['chart-leak']?.marks ?? [])]) {
    t.ok(mark.values > 0 && mark.count > 10, `${name}, throughput and leak: ${mark.label} drawn (${mark.values} values, ${mark.count} pixels of its colour)`)
  }
  if (leaking.length > 0) t.same(chart['chart-leak'].marks.map((m) => m.label), leaking, `${name}: the leak chart for ${leaking.join(', ')}`)
  t.same(chart['chart-cpu'].marks.map((m) => m.label), targets, `${name}: a bar place for every target`)
  for (const [i, mark] of chart['chart-cpu'].marks.entries()) {
    const figure = result.summaries[i].cpuMicrosPerRequest
    if (figure === null) t.equal(mark.values, 0, `${name}, chart-cpu: no bar for ${mark.label}, no CPU time per request (no response)`)
    else t.ok(mark.values === 1 && mark.count > 10, `${name}, chart-cpu: ${mark.label} drawn (${figure} µs, ${mark.count} pixels of its colour)`)
  }
  t.same(chart['chart-latency'].marks.map((m) => m.label), Object.keys(LATENCIES), `${name}: the three percentiles`)
  const answered = result.summaries.filter((s) => s.responses !== 0)
  for (const mark of chart['chart-latency'].marks) {
    const figures = answered.map((s) => s[LATENCIES[mark.label]])
    t.equal(mark.values, figures.length, `${name}, chart-latency: ${mark.label} of every target that answered (${figures.join(', ')} ms)`)
    t.same(mark.hidden, [], `${name}, chart-latency: every ${mark.label} seen (${mark.count} pixels of its colour)`)
  }
  if (answered.some((s) => Object.values(LATENCIES).some((key) => s[key] === 0))) {
    t.ok(chart['chart-latency'].yLabels.includes('< 1 ms'), `${name}: the latency axis says what a 0 is (${chart['chart-latency'].yLabels.join(', ')})`)
  }
  t.same(ratios.map((r) => [r.name, r.value]), result.ratios.map((r) => [r.name, r.value]), `${name}: the ratio table is the run's`)
  // As every printer writes it: two decimals below 10, so within 1 % only
  // from 0.5 up (0.28 for 0.2843, fixed/fast on a loaded machine).
  for (const [i, r] of ratios.entries()) t.equal(r.text, ratioValueText(result.ratios[i]), `${r.name}: shows ${r.text} for ${r.value}`)
  t.equal(background, scheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)', `${name}: its background`)
  if (pdf) {
    const printed = await page.pdf({ format: 'A4' })
    t.ok(printed.length > 20000, `it prints (${printed.length} bytes of PDF)`)
  }
}

// The page of `result`, written into `dir` as `name`.html, opened in
// `scheme` and checked.
async function checkRendered (t, browser, dir, { name, result, scheme = 'light' }) {
  const html = path.join(dir, `${name}.html`)
  fs.writeFileSync(html, renderHtml(result))
  const { page, refused, errors } = await openReport(browser, html, scheme)
  await checkPage(t, page, { name, scheme, result, refused, errors })
  await page.close()
}

function temporaryFolder (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-html-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('a report from a short real run draws every chart, offline, with no error, and so would a faster machine', { skip }, async (t) => {
  const dir = temporaryFolder(t)
  const json = path.join(dir, 'run.json')
  const html = path.join(dir, 'run.html')
  // Mode start: the page is what is tested, and start reports its goals
  // without enforcing them (a second of load cannot hold a goal).
  const run = await bench(['--mode', 'start', '--targets', 'slow,fast,fixed', ...SHORT, '--json', json, '--html', html])
  t.equal(run.code, 0, run.stderr)
  // Compared as text: a path made into a RegExp breaks on Windows' \ and on
  // a ( or a + in TMPDIR.
  t.same(run.stdout.split('\n').slice(-2), [`report: ${shownPath(process.cwd(), html)}`, ''], 'the path is the last line')
  const result = JSON.parse(fs.readFileSync(json, 'utf8'))

  const browser = await launchBrowser(t)
  for (const scheme of ['light', 'dark']) {
    const { page, refused, errors } = await openReport(browser, html, scheme)
    await checkPage(t, page, { name: scheme, scheme, result, refused, errors, pdf: scheme === 'light' })
    await page.close()
  }
  await checkRendered(t, browser, dir, { name: 'four times faster', result: onFasterMachine(result) })
})

t.test('made-up runs draw every figure: latencies of 0, equal percentiles, a zero count, one target', { skip }, async (t) => {
  const dir = temporaryFolder(t)
  const stored = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'bench-start-run.json'), 'utf8'))
  const browser = await launchBrowser(t)
  await checkRendered(t, browser, dir, { name: 'every edge', result: everyEdge(stored) })
  await checkRendered(t, browser, dir, { name: 'every edge, dark', result: everyEdge(stored), scheme: 'dark' })
  await checkRendered(t, browser, dir, { name: 'one target', result: oneTarget(everyEdge(stored), 'fixed') })
})
