'use strict'

// The stored history as series, in the order of a branch's first-parent
// commits, and each series' change points named by the commits on either
// side, with the A/B that confirmed one where confirm.js ran it.

const { git } = require('../../tooling/git')
const { median } = require('../judge/stats')
const { readLines, readPoints, FETCH_COMMAND } = require('./store')
const { describeChanges, signed, formatP, pFigure } = require('./changes')
const { INSTRUCTION_DEFAULTS } = require('../judge/instructions')

// The smallest change of a count that is a change point: two processes of
// the same code count up to half the gate's allowance apart
// (docs/instructions.md), 0.05 %. The history's series are counts of
// separate processes, one a commit, so a step smaller than that is the
// meter's noise, however many points hold it.
const METER_MIN_MAGNITUDE = INSTRUCTION_DEFAULTS.maxRegression / 2

const firstParents = (root, ref) => git(['rev-list', '--first-parent', '--reverse', ref], { cwd: root }).split('\n')

/**
 * Every series of the store under `root` along `ref`'s first parents:
 * [{ series, about, target, commits (in order), values (a commit's median),
 * cpuMicrosPerRequest (a commit's median, null where not measured), changes: [{ ...describeChanges', before, after (commits), between
 * (commits on the branch between them, not recorded), confirmation (the
 * A/B's line, or null) }], retracted: [{ commit, reason }] (points taken
 * back, left out of the series) }].
 */
function historyReport ({ root, ref = 'HEAD', lines = readLines({ root }) }) {
  const order = firstParents(root, ref)
  const position = new Map(order.map((commit, i) => [commit, i]))
  const confirmations = lines.filter((line) => line.kind === 'confirmation')
  const retractions = lines.filter((line) => line.kind === 'retraction' && position.has(line.commit))
  const groups = new Map()
  for (const point of readPoints({ root, lines }).filter((line) => position.has(line.commit))) {
    const key = `${point.series} ${point.target}`
    if (!groups.has(key)) groups.set(key, { series: point.series, about: point.about, target: point.target, byCommit: new Map() })
    const byCommit = groups.get(key).byCommit
    if (!byCommit.has(point.commit)) byCommit.set(point.commit, [])
    byCommit.get(point.commit).push(point)
  }
  return [...groups.values()].map(({ byCommit, ...group }) => {
    const commits = [...byCommit.keys()].sort((a, b) => position.get(a) - position.get(b))
    const values = commits.map((commit) => median(byCommit.get(commit).map((point) => point.instructionsPerRequest)))
    const cpuMicrosPerRequest = commits.map((commit) => median(byCommit.get(commit).map((point) => point.cpuMicrosPerRequest ?? NaN)))
    const changes = describeChanges(values, { minMagnitude: METER_MIN_MAGNITUDE }).map((change) => {
      const [before, after] = [commits[change.index - 1], commits[change.index]]
      const confirmation = confirmations.find((line) => line.commit === after && line.before === before &&
        line.series === group.series && line.target === group.target) ?? null
      return { ...change, before: { ...change.before, commit: before }, after: { ...change.after, commit: after }, between: position.get(after) - position.get(before) - 1, confirmation }
    })
    const retracted = retractions.filter((line) => line.series === group.series && line.target === group.target)
      .sort((a, b) => position.get(a.commit) - position.get(b.commit)).map(({ commit, reason }) => ({ commit, reason: reason ?? null }))
    return { ...group, commits, values, cpuMicrosPerRequest, changes, retracted }
  }).sort((a, b) => `${a.target} ${a.series}`.localeCompare(`${b.target} ${b.series}`))
}

const short = (commit) => commit.slice(0, 12)

function sizeOf ({ shift: { percent, percentInterval } }) {
  return `${signed(percent)} % (${signed(percentInterval[0])} to ${signed(percentInterval[1])} %)`
}

function betweenText (change) {
  return change.between === 0 ? 'adjacent' : `${change.between} commit(s) between, not recorded`
}

/** What the A/B said of a change point, or what to run. */
function confirmationText ({ confirmation }) {
  if (confirmation === null) return 'not confirmed: npm run bench:history -- confirm'
  const ab = `A/B ${confirmation.verdict}, ${signed(confirmation.change * 100)} %`
  return confirmation.confirmed ? `confirmed (${ab})` : `not confirmed (${ab})`
}

/**
 * The report as text, a series a paragraph. `stored`: whether the clone
 * holds a history at all (hasHistory); a fresh clone has none until it
 * fetches the notes, and that is cheaper than counting with the meter.
 */
function formatReport (report, { stored = true } = {}) {
  if (report.length === 0 && !stored) {
    return `bench:history: this clone has no history yet: fetch it with ${FETCH_COMMAND}, or count commits (npm run bench:history -- record)\n`
  }
  if (report.length === 0) return 'bench:history: no point recorded on this branch yet (npm run bench:history -- record)\n'
  return report.map((series) => [
    `${series.target}, series ${series.series} (${series.about}): ${series.commits.length} commits recorded, ` +
      `${series.changes.filter((c) => !c.weak).length} change point(s), ${series.changes.filter((c) => c.weak).length} weak` +
      ((series.retracted ?? []).length > 0 ? `, ${series.retracted.length} point(s) retracted` : ''),
    ...series.changes.map((change) => `  ${change.weak ? 'weak ' : ''}${short(change.before.commit)} -> ${short(change.after.commit)} (${betweenText(change)}): ` +
      `${sizeOf(change)}, ${formatP(change.pValue)}, ${confirmationText(change)}`),
    ...(series.retracted ?? []).map(({ commit, reason }) => `  retracted: ${short(commit)}${reason ? ` (${reason})` : ''}`)
  ].join('\n')).join('\n\n') + '\n'
}

/** The report as a Markdown table, a change point a row. */
function formatMarkdown (report) {
  const rows = report.flatMap((series) => series.changes.map((change) =>
    `| ${series.target} | ${series.series} | \`${short(change.before.commit)}\` | \`${short(change.after.commit)}\` | ${change.between} | ${sizeOf(change)} | ` +
    `${pFigure(change.pValue)}${change.weak ? ' (weak)' : ''} | ${confirmationText(change)} |`))
  return ['| target | series | before | after | between | size | p | confirmed |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n') + '\n' +
    (rows.length === 0 ? `\nNo change point in ${report.length} series.\n` : '')
}

module.exports = { historyReport, formatReport, formatMarkdown, firstParents, METER_MIN_MAGNITUDE }
