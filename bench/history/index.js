'use strict'

// `npm run bench:history`: the history of cost per request, kept as git notes (store.js): the
// change points of each series (report.js), `record` to count commits into it (record.js), and
// `changes FILE` for any series of numbers.

const fs = require('node:fs')
const { runAsProcess, parseCommandLine, UsageError } = require('../../tooling/command')
const { ROOT } = require('../../tooling/repo')
const { ALPHA, PERMUTATIONS, MIN_SIZE, TESTS } = require('./change-points')
const { describeChanges, formatChange, WEAK_ALPHA } = require('./changes')
const { confirmChanges } = require('./confirm')
const { historyReport, formatReport, formatMarkdown, METER_MIN_MAGNITUDE } = require('./report')
const { recordCommits } = require('./record')
const { renderHistoryPage, githubCommitUrl } = require('./page')
const { git } = require('../../tooling/git')
const { pushHistory, retractPoints, hasHistory } = require('./store')
const { TARGETS } = require('../protocol/targets')

const USAGE = `Usage: npm run bench:history -- [--json | --markdown] [--html FILE] [--ref REF]
       npm run bench:history -- record [REF...] [--targets LIST] [--push REMOTE]
       npm run bench:history -- confirm [--ref REF] [--push REMOTE]
       npm run bench:history -- retract REF --targets LIST [--reason TEXT] [--push REMOTE]
       npm run bench:history -- changes FILE [--json] [--test student|permutation]
                                    [--min-magnitude PERCENT]

With no subcommand: each series of the stored history (git notes under
refs/notes/bench-history) along REF's first parents (default HEAD), and
its change points, each with the commits on either side, its size in %
with a 95 % interval, its p-value, and whether an A/B confirmed it. A
weak change point (p under ${WEAK_ALPHA}, not ${ALPHA}) is shown to be measured.
A step under ${METER_MIN_MAGNITUDE * 100} % of a count is the meter's noise, not a change.
--html FILE also writes a page: a chart a series, change points marked,
each linked to its commit (on GitHub, where the repository is there).
record counts each REF (default HEAD) with the instruction meter, from a
worktree of its own, and keeps a point a target on its commit, with its
CPU per request beside (a few short rounds, not judged).
confirm measures each change point not yet confirmed, of the series this
machine counts: unrecorded commits between its sides bisected with the
meter (each count kept), then an A/B of the two adjacent commits.
retract takes back REF's points of the targets listed: a retraction line
on the commit, which the report applies and names (a point cannot be
deleted: the merge of two runners' histories would bring it back).
--push merges the remote's history and pushes it; confirm pushes after
each count and each verdict.
changes: the change points of FILE, a JSON array of numbers in the order
they were measured, by E-divisive means (Matteson and James, 2014), in
Apache Otava's two stages: the split where the points before and after
differ most, kept where Student's t-test between them gives p under
${WEAK_ALPHA}, then again on each side; then each split tested again
between its neighbours, the weakest dropped (a weak change point) while
its p is not under ${ALPHA}. --min-magnitude: a change of the mean under
PERCENT % is none (default 0). With --test permutation, a split is kept
where none of ${PERMUTATIONS} shuffles splits as well, in one stage. A side
needs ${MIN_SIZE} points. --json: a JSON array,
one object per change point: { index (0-based, the first point after it),
weak, pValue, qHat, before: { from, to, median }, after: { ... }, shift:
{ difference, interval, percent, percentInterval } } (to excluded).
`

function readSeries (file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${err.code ?? err.message}`)
  }
  let series
  try {
    series = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`${file} is not JSON: ${err.message}`)
  }
  if (!Array.isArray(series) || !series.every(Number.isFinite)) throw new UsageError(`${file} is not a JSON array of numbers`)
  return series
}

async function main (argv, { stdout }) {
  const { values, positionals } = parseCommandLine(argv, {
    json: { type: 'boolean', default: false },
    markdown: { type: 'boolean', default: false },
    html: { type: 'string' },
    ref: { type: 'string', default: 'HEAD' },
    targets: { type: 'string' },
    push: { type: 'string' },
    test: { type: 'string', default: 'student' },
    'min-magnitude': { type: 'string' },
    reason: { type: 'string' }
  }, { positionals: true })
  const [subcommand, ...rest] = positionals
  if (subcommand === 'changes') return changes(rest, values, stdout)
  if (subcommand === 'record') return record(rest, values, stdout)
  if (subcommand === 'confirm') return confirm(rest, values, stdout)
  if (subcommand === 'retract') return retract(rest, values, stdout)
  if (subcommand !== undefined) throw new UsageError(`unknown subcommand "${subcommand}": record, confirm, retract, changes, or none for the report`)
  const report = historyReport({ root: ROOT, ref: values.ref })
  if (values.html) {
    const origin = git(['remote', 'get-url', 'origin'], { cwd: ROOT, allowFailure: true })
    fs.writeFileSync(values.html, renderHistoryPage(report, { ref: values.ref, commitUrl: githubCommitUrl({ originUrl: origin }) }))
  }
  stdout.write(values.json ? JSON.stringify(report, null, 2) + '\n' : values.markdown ? formatMarkdown(report) : formatReport(report, { stored: hasHistory({ root: ROOT }) }))
  return 0
}

function changes ([file, ...rest], values, stdout) {
  if (file === undefined) throw new UsageError('changes needs a FILE')
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  if (!TESTS.includes(values.test)) throw new UsageError(`--test: one of ${TESTS.join(', ')}`)
  const series = readSeries(file)
  const found = describeChanges(series, { test: values.test, minMagnitude: minMagnitudeOf(values) })
  if (values.json) stdout.write(JSON.stringify(found, null, 2) + '\n')
  else stdout.write(found.length === 0 ? `no change point in ${series.length} points\n` : found.map(formatChange).join('\n') + '\n')
  return 0
}

function minMagnitudeOf (values) {
  const text = values['min-magnitude']
  if (text === undefined) return 0
  if (values.test !== 'student') throw new UsageError('--min-magnitude: with Student\'s test only')
  const percent = Number(text)
  if (text.trim() === '' || !Number.isFinite(percent) || percent < 0) throw new UsageError(`--min-magnitude: a percentage, 0 or more, not "${text}"`)
  return percent / 100
}

async function record (refs, values, stdout) {
  const targets = values.targets?.split(',').map((name) => name.trim())
  for (const target of targets ?? []) if (!TARGETS[target]) throw new UsageError(`--targets: unknown target "${target}"`)
  await recordCommits(refs, { root: ROOT, targets, log: (line) => stdout.write(line + '\n') })
  return push(values, stdout)
}

async function confirm (rest, values, stdout) {
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  const kept = values.push ? () => pushHistory(values.push, { root: ROOT }) : undefined
  await confirmChanges({ root: ROOT, ref: values.ref, log: (line) => stdout.write(line + '\n'), kept })
  stdout.write('\n' + formatReport(historyReport({ root: ROOT, ref: values.ref })))
  return push(values, stdout)
}

function retract ([ref, ...rest], values, stdout) {
  if (ref === undefined) throw new UsageError('retract needs a REF (the commit whose points to take back)')
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  if (!values.targets) throw new UsageError('retract needs --targets LIST (the targets whose points to take back)')
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: ROOT, allowFailure: true })
  if (commit === null) throw new UsageError(`${ref}: no such commit`)
  const targets = values.targets.split(',').map((name) => name.trim())
  const points = retractPoints(commit, { root: ROOT, targets, reason: values.reason })
  if (points.length === 0) throw new UsageError(`${ref}: no point of ${targets.join(', ')} recorded on ${commit.slice(0, 12)}`)
  stdout.write(`retract: ${commit.slice(0, 12)}: ${points.map((point) => `${point.target} ${Math.round(point.instructionsPerRequest)}`).join(', ')} taken back\n`)
  return push(values, stdout)
}

function push (values, stdout) {
  if (values.push) stdout.write(`bench:history: pushed to ${values.push} in ${pushHistory(values.push, { root: ROOT })} tr(ies)\n`)
  return 0
}

const command = { name: 'bench:history', usage: USAGE, main }

module.exports = { command }

if (require.main === module) runAsProcess(command)
