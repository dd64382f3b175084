'use strict'

// bench/history/store.js: the history kept as git notes, one JSON line a
// point, pushed and fetched like a branch, and two runners' points merged
// as their union, never the last writer's.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { gitIn } = require('../../throwaway-repository')
const { NOTES_REF, addPoints, readPoints, pushHistory } = require('../../../bench/history/store')

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
