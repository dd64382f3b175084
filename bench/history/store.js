'use strict'

// The history's home: git notes under refs/notes/bench-history, one note a
// commit, a JSON line a point. Notes travel with the repository (pushed and
// fetched like a branch), need no server and no secret, and two runners'
// notes merge with git's cat_sort_uniq strategy: the union of the lines,
// never the last writer's (docs/history.md, "Where the history lives").

const { spawnSync } = require('node:child_process')
const { git } = require('../../tooling/git')

const NOTES = 'bench-history'
const NOTES_REF = `refs/notes/${NOTES}`
// The notes' own commits are the recorder's, whoever the clone's user is.
const AS_RECORDER = ['-c', 'user.name=bench-history', '-c', 'user.email=bench-history@localhost']

// The token that may push the history (CI's history job sets it on the
// steps that push, its checkout keeping no credentials). Read once and
// taken out of the environment, so that nothing this process starts, the
// servers it counts included, inherits it: only the fetch and the push
// see it, as git's own header for github.com.
const TOKEN_VARIABLE = 'BENCH_HISTORY_TOKEN'
const pushToken = process.env[TOKEN_VARIABLE] || null
delete process.env[TOKEN_VARIABLE]

/** The environment of a fetch or push: git's header with the token, where there is one. */
function remoteEnvironment (token = pushToken) {
  if (token === null) return process.env
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64')
  return { ...process.env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader', GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}` }
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
  const old = git(['notes', `--ref=${NOTES}`, 'show', commit], { cwd: root, allowFailure: true })
  const lines = new Set([...(old ?? '').split('\n'), ...points.map(pointLine)].filter(Boolean))
  git([...AS_RECORDER, 'notes', `--ref=${NOTES}`, 'add', '-f', '--file=-', commit], { cwd: root, input: [...lines].sort().join('\n') + '\n' })
}

/**
 * Every line kept, each with its `commit`: [{ commit, ...line }], read in
 * one git process however many commits carry a note. A line with a `kind`
 * is not a count: 'confirmation' is an A/B's verdict (confirm.js),
 * 'retraction' takes a target's points on its commit back (retractPoints).
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

/**
 * The counts kept, less the ones taken back: a retraction line (its
 * `series`, `target`) on a commit takes back that commit's points of them.
 * Lines are only ever added, since two runners' notes merge as their union:
 * a point deleted from one clone comes back from the other, a retraction
 * stays.
 */
function readPoints ({ root, lines = readLines({ root }) }) {
  const retracted = new Set(lines.filter((line) => line.kind === 'retraction').map(retractionKey))
  return lines.filter((line) => line.kind === undefined && !retracted.has(retractionKey(line)))
}

const retractionKey = ({ commit, series, target }) => JSON.stringify([commit, series, target])

/**
 * Take back `commit`'s points of `targets` (every series they were counted
 * in): a retraction line a series, with `reason`, on the commit's note.
 * Resolves to the points taken back.
 */
function retractPoints (commit, { root, targets, reason }) {
  const lines = readLines({ root })
  const points = readPoints({ root, lines }).filter((point) => point.commit === commit && targets.includes(point.target))
  const retractions = [...new Map(points.map(({ series, target }) => [JSON.stringify([series, target]), { kind: 'retraction', series, target, reason }])).values()]
  if (retractions.length > 0) addPoints(commit, retractions, { root })
  return points
}

/** Whether this clone holds a history at all (a fresh clone does not fetch notes). */
function hasHistory ({ root }) {
  return git(['rev-parse', '--verify', '--quiet', NOTES_REF], { cwd: root, allowFailure: true }) !== null
}

const FETCH_COMMAND = `git fetch origin ${NOTES_REF}:${NOTES_REF}`

// Git with its own words kept: a fetch or push that fails says why (no
// such remote, no right to push, no network), and that is what to show.
function gitSaying (args, { root }) {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8', env: remoteEnvironment() })
  if (result.error) throw result.error
  return { ok: result.status === 0, out: result.stdout.trim(), said: result.stderr.trim() }
}

/**
 * `remote`'s history merged into this clone's, as the union of both: what
 * a runner does before it pushes, and again when its push was refused.
 * False where the remote has no history yet; a remote that cannot be read
 * throws with git's reason.
 */
function mergeFrom (remote, { root }) {
  const listed = gitSaying(['ls-remote', remote, NOTES_REF], { root })
  if (!listed.ok) throw new Error(`cannot read ${remote}'s history: ${listed.said}`)
  if (listed.out === '') return false
  const fetched = `refs/notes/${NOTES}-${remote}`
  const fetch = gitSaying(['fetch', '--quiet', remote, `+${NOTES_REF}:${fetched}`], { root })
  if (!fetch.ok) throw new Error(`cannot fetch ${remote}'s history: ${fetch.said}`)
  git([...AS_RECORDER, 'notes', `--ref=${NOTES}`, 'merge', '--quiet', '--strategy=cat_sort_uniq', fetched], { cwd: root })
  return true
}

/**
 * Push this clone's history to `remote`, merging what another runner pushed
 * meanwhile (up to `tries` times). Resolves to the number of tries taken.
 * A push refused for any other reason (no right, a hook) throws at once,
 * with git's reason.
 */
function pushHistory (remote, { root, tries = 5 }) {
  let said = ''
  for (let attempt = 1; attempt <= tries; attempt++) {
    mergeFrom(remote, { root })
    const push = gitSaying(['push', '--porcelain', remote, NOTES_REF], { root })
    if (push.ok) return attempt
    said = [push.out, push.said].filter(Boolean).join('\n')
    // --porcelain: "!<tab>from:to<tab>[rejected] (fetch first)" where another
    // runner pushed meanwhile, "[remote rejected] (failed to update ref)"
    // where it pushed at the same instant; any other refusal is the
    // remote's (a hook, no right) and another try would not change it.
    if (!/\t\[rejected\]|\t\[remote rejected\] \(failed to update ref\)/.test(push.out)) throw new Error(`${remote} refused ${NOTES_REF}: ${said}`)
  }
  throw new Error(`${remote} refused ${NOTES_REF} ${tries} times, each time for a newer history pushed meanwhile: ${said}`)
}

module.exports = { NOTES_REF, FETCH_COMMAND, TOKEN_VARIABLE, remoteEnvironment, addPoints, readLines, readPoints, retractPoints, hasHistory, mergeFrom, pushHistory, pointLine }
