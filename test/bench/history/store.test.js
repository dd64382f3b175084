'use strict'

// bench/history/store.js: the history kept as git notes, one JSON line a
// point, pushed and fetched like a branch, and two runners' points merged
// as their union, never the last writer's; a point taken back by a line of
// its own; git's own reason when a fetch or a push fails; a fresh clone
// told to fetch the notes.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawn, execFileSync } = require('node:child_process')
const { gitIn } = require('../../throwaway-repository')
const { NOTES_REF, TOKEN_VARIABLE, addPoints, readPoints, pushHistory, retractPoints, hasHistory, remoteEnvironment } = require('../../../bench/history/store')
const { historyReport, formatReport } = require('../../../bench/history/report')

const STORE = path.join(__dirname, '..', '..', '..', 'bench', 'history', 'store.js')

// An origin with `commits` commits and a clone of it per runner: { origin, clones, ids }.
function origin (t, commits, runners) {
  const dir = t.testdir({})
  const work = path.join(dir, 'work')
  fs.mkdirSync(work)
  gitIn(work, 'init', '-q', '-b', 'main')
  for (let i = 1; i <= commits; i++) {
    fs.writeFileSync(path.join(work, 'file'), `${i}\n`)
    gitIn(work, 'add', 'file')
    gitIn(work, 'commit', '-q', '-m', `commit ${i}`)
  }
  const ids = gitIn(work, 'rev-list', '--reverse', 'HEAD').split('\n')
  const bare = path.join(dir, 'origin.git')
  gitIn(dir, 'clone', '-q', '--bare', work, bare)
  const clones = Array.from({ length: runners }, (_, i) => {
    const clone = path.join(dir, `runner-${i + 1}`)
    gitIn(dir, 'clone', '-q', bare, clone)
    return clone
  })
  return { origin: bare, clones, ids, dir }
}

const point = (target, count) => ({ series: 'node v26.12.1, valgrind 3.19.0', target, instructionsPerRequest: count })
const sorted = (points) => [...points].sort((a, b) => `${a.commit}${a.target}`.localeCompare(`${b.commit}${b.target}`))

t.test('points kept on a commit are read back, each once, with its commit', async (t) => {
  const { clones: [clone], ids } = origin(t, 2, 1)
  t.same(readPoints({ root: clone }), [], 'no history yet')
  addPoints(ids[0], [point('fixed', 69500), point('fast', 250000)], { root: clone })
  addPoints(ids[0], [point('fixed', 69500)], { root: clone })
  addPoints(ids[1], [point('fixed', 69600)], { root: clone })
  t.same(sorted(readPoints({ root: clone })), sorted([
    { commit: ids[0], ...point('fixed', 69500) },
    { commit: ids[0], ...point('fast', 250000) },
    { commit: ids[1], ...point('fixed', 69600) }
  ]))
})

t.test('two runners recording at the same time keep both points', async (t) => {
  const { origin: bare, clones, ids, dir } = origin(t, 3, 2)
  // Each runner a process of its own, started together: record, then push.
  const script = (commit, target) => `const store = require(${JSON.stringify(STORE)})
store.addPoints(${JSON.stringify(commit)}, [${JSON.stringify(point(target, 1))}], { root: process.cwd() })
process.stdout.write(String(store.pushHistory('origin', { root: process.cwd(), tries: 10 })))`
  const runner = (clone, commit, target) => new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script(commit, target)], { cwd: clone })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => { out += chunk })
    child.stderr.on('data', (chunk) => { err += chunk })
    child.on('close', (code) => resolve({ code, out, err }))
  })
  const runs = await Promise.all([runner(clones[0], ids[1], 'fixed'), runner(clones[1], ids[2], 'fast')])
  for (const run of runs) t.equal(run.code, 0, run.err)
  const reader = path.join(dir, 'reader')
  gitIn(dir, 'clone', '-q', bare, reader)
  gitIn(reader, 'fetch', '-q', 'origin', `${NOTES_REF}:${NOTES_REF}`)
  t.same(sorted(readPoints({ root: reader })), sorted([{ commit: ids[1], ...point('fixed', 1) }, { commit: ids[2], ...point('fast', 1) }]), 'a fresh clone reads both')
})

t.test('a runner whose push was refused merges, never overwrites', async (t) => {
  const { clones: [first, second], ids } = origin(t, 2, 2)
  addPoints(ids[0], [point('fixed', 1)], { root: first })
  t.equal(pushHistory('origin', { root: first }), 1, 'the first push goes through')
  addPoints(ids[0], [point('fast', 2)], { root: second })
  t.equal(pushHistory('origin', { root: second }), 1, 'the second merges what it fetched, then pushes')
  pushHistory('origin', { root: first })
  t.same(sorted(readPoints({ root: first })), sorted([{ commit: ids[0], ...point('fixed', 1) }, { commit: ids[0], ...point('fast', 2) }]), 'both points on the same commit')
})

t.test("a remote that cannot be read, or refuses the push, says git's own reason, at once", async (t) => {
  const { origin: bare, clones: [clone], ids } = origin(t, 1, 1)
  addPoints(ids[0], [point('fixed', 1)], { root: clone })
  t.throws(() => pushHistory('nowhere', { root: clone }), /cannot read nowhere's history: .*'nowhere' does not appear to be a git repository/)
  // A hook that refuses every push, counting its calls: no retry is another runner's fault.
  const calls = path.join(bare, 'hook-calls')
  fs.writeFileSync(path.join(bare, 'hooks', 'pre-receive'), `#!/bin/sh\necho call >> '${calls}'\necho 'pushes are closed here' >&2\nexit 1\n`, { mode: 0o755 })
  t.throws(() => pushHistory('origin', { root: clone }), /^origin refused refs\/notes\/bench-history: [^]*\[remote rejected\] \(pre-receive hook declined\)[^]*pushes are closed here/)
  t.equal(fs.readFileSync(calls, 'utf8'), 'call\n', 'tried once')
})

t.test('a point taken back stays taken back, though the union keeps every line', async (t) => {
  const { origin: bare, clones: [first, second], ids, dir } = origin(t, 2, 2)
  addPoints(ids[0], [point('fixed', 1), point('fast', 2)], { root: first })
  addPoints(ids[1], [point('fixed', 3)], { root: first })
  pushHistory('origin', { root: first })
  pushHistory('origin', { root: second })
  t.same(retractPoints(ids[0], { root: first, targets: ['fixed'], reason: 'a busy runner' }).map((p) => p.instructionsPerRequest), [1], 'the point taken back')
  pushHistory('origin', { root: first })
  // The second runner still holds the point; its push merges, as every push does.
  addPoints(ids[1], [point('fast', 4)], { root: second })
  pushHistory('origin', { root: second })
  const reader = path.join(dir, 'reader')
  gitIn(dir, 'clone', '-q', bare, reader)
  t.notOk(hasHistory({ root: reader }), 'a fresh clone has no notes')
  t.match(formatReport(historyReport({ root: reader }), { stored: hasHistory({ root: reader }) }),
    /^bench:history: this clone has no history yet: fetch it with git fetch origin refs\/notes\/bench-history:refs\/notes\/bench-history, or count commits/, 'the fetch said first')
  gitIn(reader, 'fetch', '-q', 'origin', `${NOTES_REF}:${NOTES_REF}`)
  t.ok(hasHistory({ root: reader }))
  t.same(sorted(readPoints({ root: reader })), sorted([{ commit: ids[0], ...point('fast', 2) }, { commit: ids[1], ...point('fixed', 3) }, { commit: ids[1], ...point('fast', 4) }]), 'the retracted point left out')
  const report = historyReport({ root: reader })
  const fixed = report.find((series) => series.target === 'fixed')
  t.same(fixed.values, [3])
  t.same(fixed.retracted, [{ commit: ids[0], reason: 'a busy runner' }])
  t.match(formatReport(report), new RegExp(`fixed, series .*: 1 commits recorded, 0 change point\\(s\\), 0 weak, 1 point\\(s\\) retracted\\n  retracted: ${ids[0].slice(0, 12)} \\(a busy runner\\)`))
})

t.test('the push token: out of the environment at once, in the fetch and push alone', async (t) => {
  const script = `const store = require(${JSON.stringify(STORE)})
const child = require('node:child_process').execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.env.${TOKEN_VARIABLE}))'], { encoding: 'utf8' })
const remote = store.remoteEnvironment()
process.stdout.write(JSON.stringify({ here: process.env.${TOKEN_VARIABLE} ?? null, child, key: remote.GIT_CONFIG_KEY_0, value: remote.GIT_CONFIG_VALUE_0 }))`
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, [TOKEN_VARIABLE]: 'a-token' } }))
  t.same(out, {
    here: null,
    child: 'undefined',
    key: 'http.https://github.com/.extraheader',
    value: `AUTHORIZATION: basic ${Buffer.from('x-access-token:a-token').toString('base64')}`
  })
  t.equal(remoteEnvironment(null), process.env, 'no token, no header')
})
