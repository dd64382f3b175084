'use strict'

// The history's home: git notes under refs/notes/bench-history, one note a
// commit, a JSON line a point. Notes travel with the repository (pushed and
// fetched like a branch), need no server and no secret, and two runners'
// notes merge with git's cat_sort_uniq strategy: the union of the lines,
// never the last writer's (docs/history.md, "Where the history lives").

const { git } = require('../../tooling/git')

const NOTES = 'bench-history'
const NOTES_REF = `refs/notes/${NOTES}`
// The notes' own commits are the recorder's, whoever the clone's user is.
const AS_RECORDER = ['-c', 'user.name=bench-history', '-c', 'user.email=bench-history@localhost']

// One point as its line: keys sorted, so the same point is the same line.
function pointLine (point) {
  return JSON.stringify(Object.fromEntries(Object.entries(point).sort(([a], [b]) => a.localeCompare(b))))
}

/**
 * Keep `points` ({ series, target, ... }) on `commit`'s note, beside the
 * points already there; the same point twice is kept once.
 */
function addPoints (commit, points, { root }) {
  const old = git(['notes', `--ref=${NOTES}`, 'show', commit], { cwd: root, allowFailure: true })
  const lines = new Set([...(old ?? '').split('\n'), ...points.map(pointLine)].filter(Boolean))
  git([...AS_RECORDER, 'notes', `--ref=${NOTES}`, 'add', '-f', '--file=-', commit], { cwd: root, input: [...lines].sort().join('\n') + '\n' })
}

/**
 * Every line kept, each with its `commit`: [{ commit, ...line }], read in
 * one git process however many commits carry a note. A line with a `kind`
 * is not a count: 'confirmation' is an A/B's verdict (confirm.js).
 */
function readLines ({ root }) {
  const listed = git(['notes', `--ref=${NOTES}`, 'list'], { cwd: root, allowFailure: true })
  const notes = (listed ?? '').split('\n').filter(Boolean).map((line) => line.split(' '))
  if (notes.length === 0) return []
  // --batch answers each blob as "<id> blob <bytes>\n<content>\n".
  const batch = git(['cat-file', '--batch'], { cwd: root, input: notes.map(([blob]) => blob).join('\n') + '\n', encoding: 'buffer' })
  const points = []
  let at = 0
  for (const [, commit] of notes) {
    const header = batch.indexOf(10, at)
    const size = Number(batch.subarray(at, header).toString('utf8').split(' ')[2])
    const text = batch.subarray(header + 1, header + 1 + size).toString('utf8')
    for (const line of text.split('\n').filter(Boolean)) points.push({ commit, ...JSON.parse(line) })
    at = header + 1 + size + 1
  }
  return points
}

const readPoints = ({ root }) => readLines({ root }).filter((line) => line.kind === undefined)

/**
 * `remote`'s history merged into this clone's, as the union of both: what
 * a runner does before it pushes, and again when its push was refused.
 */
function mergeFrom (remote, { root }) {
  const fetched = `refs/notes/${NOTES}-${remote}`
  if (git(['fetch', '--quiet', remote, `+${NOTES_REF}:${fetched}`], { cwd: root, allowFailure: true }) === null) return false
  git([...AS_RECORDER, 'notes', `--ref=${NOTES}`, 'merge', '--quiet', '--strategy=cat_sort_uniq', fetched], { cwd: root })
  return true
}

/**
 * Push this clone's history to `remote`, merging what another runner pushed
 * meanwhile (up to `tries` times). Resolves to the number of tries taken.
 */
function pushHistory (remote, { root, tries = 5 }) {
  for (let attempt = 1; attempt <= tries; attempt++) {
    mergeFrom(remote, { root })
    if (git(['push', '--quiet', remote, NOTES_REF], { cwd: root, allowFailure: true }) !== null) return attempt
  }
  throw new Error(`${remote} refused ${NOTES_REF} ${tries} times: another runner kept pushing meanwhile`)
}

module.exports = { NOTES_REF, addPoints, readLines, readPoints, mergeFrom, pushHistory, pointLine }
