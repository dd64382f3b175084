'use strict'

// bench:history's page in headless Chromium (test/browser.js), opened
// offline from disk: a chart a series, drawn in its colour, a mark where
// each change point is (solid, or dashed for a weak one) and none where
// there is none, each change point's commits linked, nothing fetched.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { noChromium, launchBrowser, openOffline } = require('../../browser')
const { renderHistoryPage, githubCommitUrl } = require('../../../bench/history/page')
const { describeChanges } = require('../../../bench/history/changes')

t.setTimeout(90000)

const commitId = (i) => i.toString(16).padStart(40, 'a')

// A report as historyReport makes it, from made-up values.
function seriesOf (target, values, confirmation = null) {
  const commits = values.map((value, i) => commitId(i + (target === 'fast' ? 500 : 0)))
  const changes = describeChanges(values).map((change) => ({
    ...change,
    before: { ...change.before, commit: commits[change.index - 1] },
    after: { ...change.after, commit: commits[change.index] },
    between: 0,
    confirmation
  }))
  return { series: 'e43dbe1d408c', about: 'Node v26.12.1, valgrind 3.19.0', target, commits, values, changes }
}

const wobble = (i) => (i * 7) % 5
const REPORT = [
  seriesOf('fixed', Array.from({ length: 30 }, (_, i) => (i >= 18 ? 69800 : 69500) + wobble(i)), { verdict: 'REGRESSION', change: 0.0043, confirmed: true }),
  seriesOf('fast', Array.from({ length: 12 }, (_, i) => 250000 + wobble(i)))
]

t.test('the page: a chart a series, its change points marked and linked', { skip: noChromium }, async (t) => {
  t.match(REPORT[0].changes, [{ index: 18, weak: false }], 'the made-up step is a change point')
  t.same(REPORT[1].changes, [], 'the flat series has none')
  const html = path.join(t.testdir({}), 'history.html')
  fs.writeFileSync(html, renderHistoryPage(REPORT, { ref: 'main', commitUrl: githubCommitUrl({ originUrl: 'git@github.com:owner/project.git' }) }))
  const browser = await launchBrowser(t)
  for (const scheme of ['light', 'dark']) {
    const { page, refused, errors } = await openOffline(browser, html, { scheme })
    await page.waitForFunction(() => Array.isArray(window.historyCharts))
    const drawn = await page.evaluate(() => window.historyCharts.map((chart) => {
      const canvas = chart.ctx.canvas
      const pixels = chart.ctx.getImageData(0, 0, canvas.width, canvas.height).data
      const near = (i, [r, g, b]) => Math.abs(pixels[i] - r) + Math.abs(pixels[i + 1] - g) + Math.abs(pixels[i + 2] - b) < 30 && pixels[i + 3] > 200
      // Pixels of [r, g, b] in one column of the plot, and in the whole canvas.
      const column = (x, rgb) => {
        let count = 0
        for (let y = Math.round(chart.bbox.top); y < chart.bbox.top + chart.bbox.height; y++) count += near(4 * (y * canvas.width + Math.round(x)), rgb) ? 1 : 0
        return count
      }
      let line = 0
      for (let i = 0; i < pixels.length; i += 4) line += near(i, [0x00, 0x72, 0xb2]) ? 1 : 0
      const mark = [0xd5, 0x5e, 0x00]
      const plotHeight = Math.round(chart.bbox.height)
      const columns = chart.data[0].slice(1).map((x) => column(chart.valToPos(x - 0.5, 'x', true), mark))
      return { points: chart.data[1].length, line, plotHeight, columns }
    }))
    t.equal(drawn.length, 2, `${scheme}: a chart a series`)
    t.equal(drawn[0].points, 30)
    t.ok(drawn.every((chart) => chart.line > 500), `${scheme}: each series drawn in its colour (${drawn.map((c) => c.line)} pixels)`)
    const marked = drawn.map((chart) => chart.columns.flatMap((count, i) => count > chart.plotHeight * 0.9 ? [i + 1] : []))
    t.same(marked, [[18], []], `${scheme}: a full-height mark between points 17 and 18 of fixed, none on fast`)
    const links = await page.$$eval('.change-mark a', (anchors) => anchors.map((a) => a.href))
    t.same(links, [17, 18].map((i) => `https://github.com/owner/project/commit/${commitId(i)}`), 'the change point\'s two commits linked')
    t.match(await page.$eval('.change-mark', (row) => row.textContent), /change point.*\+0\.4\d* %.*confirmed: REGRESSION, \+0\.430 %/)
    t.same(refused, [], 'nothing fetched')
    t.same(errors, [], 'no error')
    await page.close()
  }
})

t.test("a commit's address: Actions' repository, the origin remote's, or none", async (t) => {
  const id = commitId(1)
  t.equal(githubCommitUrl({ env: { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'a/b' } })(id), `https://github.com/a/b/commit/${id}`)
  t.equal(githubCommitUrl({ env: {}, originUrl: 'https://github.com/a/b.git' })(id), `https://github.com/a/b/commit/${id}`)
  t.equal(githubCommitUrl({ env: {}, originUrl: '/work/somewhere/repo' })(id), null)
  const page = renderHistoryPage(REPORT, { ref: 'main' })
  t.notMatch(page, /<a href/, 'no address, no link')
  t.match(renderHistoryPage([], { ref: 'main' }), /No point recorded on this branch yet/)
})
