'use strict'

// The history as one self-contained HTML page (`bench:history -- --html FILE`): a chart a series
// (uPlot, inline, as the benchmark's report draws), its change points marked, and under each
// chart the same figures as a table, each change point linked to its commit.

const fs = require('node:fs')
const path = require('node:path')
const { escapeHtml, jsonForScript, htmlPage } = require('../../tooling/html-text')
const { signed, pFigure, figure } = require('./changes')

const UPLOT_DIR = path.dirname(require.resolve('uplot/dist/uPlot.iife.min.js'))
const REPORT_CSS = path.join(__dirname, '..', 'print', 'html', 'page.css')

/**
 * The page for `report` (historyReport's), its commits linked by
 * `commitUrl` (a commit's id to its address, or null: no links).
 */
function renderHistoryPage (report, { ref, commitUrl = () => null }) {
  const title = `Instructions per request along ${ref}`
  const inline = (file) => fs.readFileSync(file, 'utf8')
  const drawn = report.map((series, i) => ({
    id: `series-${i}`,
    label: `${series.target}, series ${series.series}`,
    values: series.values,
    changes: series.changes.map((change) => ({ index: change.index, weak: change.weak, confirmed: change.confirmation?.confirmed ?? null }))
  }))
  return htmlPage({
    title,
    styles: [inline(path.join(UPLOT_DIR, 'uPlot.min.css')), inline(REPORT_CSS), '.change-mark { font-weight: 600; }'],
    body: `<header>
<h1>${escapeHtml(title)}</h1>
<p>Each point is a recorded commit's count, in the order of the branch's first parents; a solid line marks a change point, a dashed one a weak change point (npm run bench:history -- confirm measures both).</p>
</header>
<main>
${report.length === 0 ? '<p>No point recorded on this branch yet.</p>' : report.map((series, i) => section(series, drawn[i].id, commitUrl)).join('\n')}
</main>
<script type="application/json" id="history">${jsonForScript(drawn)}</script>
<script>${inline(path.join(UPLOT_DIR, 'uPlot.iife.min.js'))}</script>
<script>${inline(path.join(__dirname, 'page-client.js'))}</script>`
  })
}

function section (series, id, commitUrl) {
  const rows = series.changes.map((change) => `<tr class="change-mark"><th scope="row">${change.weak ? 'weak change point' : 'change point'}</th>` +
    `<td>${commitLink(change.before.commit, commitUrl)} → ${commitLink(change.after.commit, commitUrl)}</td><td>${change.between}</td>` +
    `<td>${signed(change.shift.percent)} % (${signed(change.shift.percentInterval[0])} to ${signed(change.shift.percentInterval[1])} %)</td>` +
    `<td>${pFigure(change.pValue)}</td><td>${confirmationCell(change)}</td></tr>`)
  const cpu = (micros) => micros === null ? '—' : figure(micros)
  const points = series.commits.map((commit, i) => `<tr><th scope="row">${commitLink(commit, commitUrl)}</th><td>${figure(series.values[i])}</td><td>${cpu(series.cpuMicrosPerRequest?.[i] ?? null)}</td></tr>`)
  return `<section class="chart-section" id="section-${id}">
<h2>${escapeHtml(`${series.target}, series ${series.series}`)}</h2>
<p class="description">${escapeHtml(`Counted with ${series.about}; ${series.commits.length} commits recorded.`)}</p>
<div class="chart" id="${id}" role="img" aria-label="${escapeHtml(`${series.target}: instructions per request over ${series.commits.length} recorded commits, ${series.changes.length} change point(s)`)}"></div>
<div class="figures"><table><caption>Change points</caption>
<thead><tr><th>kind</th><th>commits</th><th>unrecorded between</th><th>size</th><th>p</th><th>A/B</th></tr></thead>
<tbody>${rows.join('') || '<tr><td colspan="6">none</td></tr>'}</tbody></table></div>
<details class="figures"><summary>Every recorded commit</summary><table><thead><tr><th>commit</th><th>instructions per request</th><th>CPU µs per request (beside, not judged)</th></tr></thead>
<tbody>${points.join('')}</tbody></table></details>
</section>`
}

function confirmationCell ({ confirmation }) {
  if (confirmation === null) return 'not measured'
  return `${confirmation.confirmed ? 'confirmed' : 'not confirmed'}: ${escapeHtml(confirmation.verdict)}, ${signed(confirmation.change * 100)} %`
}

function commitLink (commit, commitUrl) {
  const url = commitUrl(commit)
  const text = `<code>${commit.slice(0, 12)}</code>`
  return url === null ? text : `<a href="${escapeHtml(url)}">${text}</a>`
}

/**
 * A commit's address on GitHub when the repository is one: Actions'
 * GITHUB_SERVER_URL and GITHUB_REPOSITORY, else the `origin` remote's URL.
 */
function githubCommitUrl ({ env = process.env, originUrl = null } = {}) {
  let base = null
  if (env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY) base = `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}`
  else {
    const match = /github\.com[:/]([^/]+\/[^/]+?)(\.git)?$/.exec(originUrl ?? '')
    if (match) base = `https://github.com/${match[1]}`
  }
  return (commit) => base === null ? null : `${base}/commit/${commit}`
}

module.exports = { renderHistoryPage, githubCommitUrl }
