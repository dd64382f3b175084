'use strict'

// The history's home: git notes under refs/notes/bench-history, one note a
// commit, a JSON line a point. Notes travel with the repository (pushed and
// fetched like a branch), need no server and no secret, and two runners'
// notes merge with git's cat_sort_uniq strategy: the union of the lines,
// never the last writer's (docs/history.md, "Where the history lives").

const { spawnSync } = require('node:child_process')

const NOTES = 'bench-history'
const NOTES_REF = `refs/notes/${NOTES}`
// The notes' own commits are the recorder's, whoever the clone's user is.
const AS_RECORDER = ['-c', 'user.name=bench-history', '-c', 'user.email=bench-history@localhost']

function git (root, args, { input, allowFailure = false, encoding = 'utf8' } = {}) {
  const result = spawnSync('git', args, { cwd: root, encoding, input: input === undefined ? undefined : Buffer.from(input), maxBuffer: 256 * 2 ** 20 })
  if (result.error) throw result.error
  if (result.status !== 0 && !allowFailure) throw new Error(`git ${args.join(' ')}: ${String(result.stderr).trim()}`)
  return result
}

// One point as its line: keys sorted, so the same point is the same line.
function pointLine (point) {
  return JSON.stringify(Object.fromEntries(Object.entries(point).sort(([a], [b]) => a.localeCompare(b))))
}

/**
 * Keep `points` ({ series, target, ... }) on `commit`'s note, beside the
 * points already there; the same point twice is kept once.
 */
function addPoints (commit, points, { root }) {
  const old = git(root, ['notes', `--ref=${NOTES}`, 'show', commit], { allowFailure: true })
  const lines = new Set([...(old.status === 0 ? old.stdout.split('\n') : []), ...points.map(pointLine)].filter(Boolean))
  git(root, [...AS_RECORDER, 'notes', `--ref=${NOTES}`, 'add', '-f', '--file=-', commit], { input: [...lines].sort().join('\n') + '\n' })
}

/**
 * Every line kept, each with its `commit`: [{ commit, ...line }], read in
 * one git process however many commits carry a note. A line with a `kind`
 * is not a count: 'confirmation' is an A/B's verdict (confirm.js).
 */
function readLines ({ root }) {
  const listed = git(root, ['notes', `--ref=${NOTES}`, 'list'], { allowFailure: true })
  if (listed.status !== 0) return []
  const notes = listed.stdout.split('\n').filter(Boolean).map((line) => line.split(' '))
  if (notes.length === 0) return []
  // --batch answers each blob as "<id> blob <bytes>\n<content>\n".
  const batch = git(root, ['cat-file', '--batch'], { input: notes.map(([blob]) => blob).join('\n') + '\n', encoding: 'buffer' }).stdout
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
  const fetch = git(root, ['fetch', '--quiet', remote, `+${NOTES_REF}:${fetched}`], { allowFailure: true })
  if (fetch.status !== 0) return false
  git(root, [...AS_RECORDER, 'notes', `--ref=${NOTES}`, 'merge', '--quiet', '--strategy=cat_sort_uniq', fetched])
  return true
}

/**
 * Push this clone's history to `remote`, merging what another runner pushed
 * meanwhile (up to `tries` times). Resolves to the number of tries taken.
 */
function pushHistory (remote, { root, tries = 5 }) {
  for (let attempt = 1; attempt <= tries; attempt++) {
    mergeFrom(remote, { root })
    if (git(root, ['push', '--quiet', remote, NOTES_REF], { allowFailure: true }).status === 0) return attempt
  }
  throw new Error(`${remote} refused ${NOTES_REF} ${tries} times: another runner kept pushing meanwhile`)
}

module.exports = { NOTES_REF, addPoints, readLines, readPoints, mergeFrom, pushHistory, pointLine }
