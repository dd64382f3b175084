'use strict'

// bench:history's record, report and confirm on a throwaway repository:
// each commit counted from a worktree of its own and kept as notes, then
// read back as series along the branch, a change point named by the
// commits on either side, bisected and confirmed by an A/B. The count is
// the test's own (the instruction meter's is
// test/bench/instruction-meter-run.test.js's).

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../../../tooling/repo')
const { gitIn } = require('../../throwaway-repository')
const { recordCommits, meterSeries, measureCpu } = require('../../../bench/history/record')
const { historyReport, formatReport, formatMarkdown } = require('../../../bench/history/report')
const { readPoints, readLines } = require('../../../bench/history/store')
const { confirmChanges } = require('../../../bench/history/confirm')

const METER = { node: 'v26.12.1', valgrind: '3.19.0', libc: 'glibc 2.36', cpu: { host: 'a host', guest: 'AMD family 0x17' }, protocol: {} }

// A repository of `commits` commits, each with the project's lockfile (so
// a worktree links node_modules); its ids in order.
function repository (t, commits) {
  const dir = t.testdir({})
  gitIn(dir, 'init', '-q', '-b', 'main')
  fs.copyFileSync(path.join(ROOT, 'package-lock.json'), path.join(dir, 'package-lock.json'))
  for (let i = 1; i <= commits; i++) {
    fs.writeFileSync(path.join(dir, 'version'), `${i}\n`)
    gitIn(dir, 'add', '.')
    gitIn(dir, 'commit', '-q', '-m', `commit ${i}`)
  }
  return { dir, ids: gitIn(dir, 'rev-list', '--reverse', 'HEAD').split('\n') }
}

t.test('record counts each commit from a worktree of its own, and keeps its points', async (t) => {
  const { dir, ids } = repository(t, 3)
  const seen = []
  const count = async (targets, definitions, { trees }) => {
    const version = fs.readFileSync(path.join(trees.head, 'version'), 'utf8').trim()
    seen.push({ tree: trees.head, version })
    return { head: Object.fromEntries(targets.map((target) => [target, { windows: [1000 * Number(version) + 5, 1000 * Number(version)] }])) }
  }
  const cpu = async (targets, tree) => Object.fromEntries(targets.map((target) => [target, target === 'fixed' ? 123.456 : null]))
  const recorded = await recordCommits(['HEAD~2', 'HEAD'], { root: dir, targets: ['fixed', 'fast'], count, cpu, meter: METER })
  t.same(seen.map((s) => s.version), ['1', '3'], 'each ref\'s own tree')
  t.ok(seen.every((s) => s.tree !== dir && !fs.existsSync(s.tree)), 'worktrees apart from the clone, removed after')
  t.same(recorded.map((r) => r.commit), [ids[0], ids[2]])
  const { series } = meterSeries(METER)
  t.same(readPoints({ root: dir }).map((p) => [p.commit, p.target, p.instructionsPerRequest, p.series, p.cpuMicrosPerRequest]).sort(), [
    [ids[0], 'fast', 1000, series, undefined], [ids[0], 'fixed', 1000, series, 123.46], [ids[2], 'fast', 3000, series, undefined], [ids[2], 'fixed', 3000, series, 123.46]
  ].sort(), 'the lowest window, as the gates read a count; CPU per request beside, where measured')
  const [fixed] = historyReport({ root: dir }).filter((s) => s.target === 'fixed')
  t.same(fixed.cpuMicrosPerRequest, [123.46, 123.46], 'the report carries it, a commit\'s median')
})

t.test('a series is what it was counted with: another Node or CPU starts another', async (t) => {
  const { series } = meterSeries(METER)
  t.equal(meterSeries({ ...METER, cpu: { ...METER.cpu, host: 'another host' } }).series, series, 'the host, which valgrind does not show the code, is not part of it')
  t.not(meterSeries({ ...METER, node: 'v26.13.0' }).series, series)
  t.not(meterSeries({ ...METER, cpu: { ...METER.cpu, guest: 'Intel family 0x6' } }).series, series)
})

t.test('the report: a change point between the commits on either side, unrecorded ones counted', async (t) => {
  const { dir, ids } = repository(t, 44)
  // Commits 0 to 39 recorded, 40 to 42 not, 43 recorded; a +0.2 % shift from 20 on.
  const recorded = [...ids.slice(0, 40), ids[43]]
  const points = recorded.map((commit, i) => ({ commit, series: 's1', about: 'a meter', target: 'fixed', instructionsPerRequest: (i >= 20 ? 70140 : 70000) + (i % 3) }))
  const [report] = historyReport({ root: dir, lines: points })
  t.equal(report.commits.length, 41)
  t.match(report.changes, [{ index: 20, before: { commit: ids[19] }, after: { commit: ids[20] }, between: 0 }])
  t.ok(Math.abs(report.changes[0].shift.percent - 0.2) < 0.01, `+0.2 %: ${report.changes[0].shift.percent}`)
  t.match(formatReport([report]), new RegExp(`^fixed, series s1 \\(a meter\\): 41 commits recorded, 1 change point\\(s\\), 0 weak\\n  ${ids[19].slice(0, 12)} -> ${ids[20].slice(0, 12)} \\(adjacent\\): \\+0\\.2\\d* % .*, not confirmed: npm run bench:history -- confirm\\n$`))
  t.match(formatMarkdown([report]), `| fixed | s1 | \`${ids[19].slice(0, 12)}\` | \`${ids[20].slice(0, 12)}\` | 0 |`)
  const late = recorded.map((commit, i) => ({ commit, series: 's1', about: 'a meter', target: 'fixed', instructionsPerRequest: (i >= 40 ? 70140 : 70000) }))
  const lateChange = historyReport({ root: dir, lines: [...late, ...late.slice(-1).map((p) => ({ ...p, commit: ids[42] }))] })[0].changes
  t.match(lateChange, [{ before: { commit: ids[39] }, after: { commit: ids[42] }, between: 2 }], 'two commits between, not recorded')
  t.equal(formatReport([]), 'bench:history: no point recorded on this branch yet (npm run bench:history -- record)\n')
})

// Commit 8 on (of 1 to 13) costs +0.4 %; five windows a count, as the meter counts, a little apart.
function countByVersion (counted) {
  const windowsOf = (tree) => {
    const version = Number(fs.readFileSync(path.join(tree, 'version'), 'utf8'))
    counted.push(version)
    return Array.from({ length: 5 }, (_, i) => (version >= 8 ? 70280 : 70000) + (i % 4) * 3 + (version % 3) * 5)
  }
  return async (targets, definitions, { trees }) => Object.fromEntries(Object.entries(trees).map(([side, tree]) =>
    [side, Object.fromEntries(targets.map((target) => [target, { windows: windowsOf(tree) }]))]))
}

t.test('confirm: every third commit recorded, the one that moved the count named by bisection and confirmed by an A/B', async (t) => {
  const { dir, ids } = repository(t, 13)
  const counted = []
  const count = countByVersion(counted)
  await recordCommits([ids[0], ids[3], ids[6], ids[9], ids[12]], { root: dir, targets: ['fixed'], count, cpu: null, meter: METER })
  const [before] = historyReport({ root: dir })
  t.match(before.changes, [{ before: { commit: ids[6] }, after: { commit: ids[9] }, between: 2, confirmation: null }], 'between commits 7 and 10, two unrecorded')
  counted.length = 0
  const lines = []
  // What --push would push, each time it is called: the lines kept by then.
  const pushed = []
  const kept = () => pushed.push(readLines({ root: dir }).filter((line) => line.commit === ids[7]).map((line) => line.kind ?? 'count').sort())
  const results = await confirmChanges({ root: dir, count, meter: METER, log: (line) => lines.push(line), kept })
  t.same(pushed, [['count'], ['confirmation', 'count']], 'kept after the bisection count, then after the verdict')
  t.match(results, [{ target: 'fixed', before: ids[6], after: ids[7], confirmed: true, verdict: 'REGRESSION' }], 'commit 8 named')
  t.same(counted, [8, 7, 8], 'one bisection count (commit 8), then the A/B of commits 7 and 8')
  t.match(lines.join('\n'), /bisect .*: 70\d+, as before the change: no\n.*A\/B REGRESSION, \+0\.4\d* %: confirmed, named after 1 bisection count/)
  const [after] = historyReport({ root: dir })
  t.match(after.changes, [{ weak: false, before: { commit: ids[6] }, after: { commit: ids[7] }, between: 0, confirmation: { verdict: 'REGRESSION', confirmed: true } }])
  t.match(formatReport([after]), /\(adjacent\): \+0\.4\d* % .*, confirmed \(A\/B REGRESSION, \+0\.4\d* %\)\n$/)
  t.equal(readLines({ root: dir }).filter((line) => line.kind === 'confirmation').length, 1, 'the verdict kept on the named commit')
  t.same(await confirmChanges({ root: dir, count, meter: METER }), [], 'confirmed once: nothing left to measure')
})

t.test('confirm: a change point the A/B does not see stays, shown not confirmed; another series is left as it is', async (t) => {
  const { dir, ids } = repository(t, 6)
  const stored = [70000, 70004, 70001, 70290, 70288, 70291]
  addPoints(ids, stored, dir)
  const flat = async (targets, definitions, { trees }) => Object.fromEntries(Object.keys(trees).map((side) =>
    [side, Object.fromEntries(targets.map((target) => [target, { windows: Array.from({ length: 5 }, (_, i) => 70000 + i) }]))]))
  const lines = []
  t.same(await confirmChanges({ root: dir, count: flat, meter: { ...METER, node: 'v24.21.0' }, log: (line) => lines.push(line) }), [])
  t.match(lines, [/counted with Node v26\.12\.1.*, this machine counts series \w+: left as it is/, 'confirm: no change point to confirm'], 'another series')
  const [result] = await confirmChanges({ root: dir, count: flat, meter: METER })
  t.match(result, { before: ids[2], after: ids[3], confirmed: false, verdict: 'within ±0.1 %' })
  t.match(formatReport(historyReport({ root: dir })), /not confirmed \(A\/B within ±0\.1 %, \+0\.000 %\)\n$/)
})

function addPoints (ids, counts, dir) {
  const { series, about } = meterSeries(METER)
  counts.forEach((count, i) => require('../../../bench/history/store').addPoints(ids[i], [{ series, about, target: 'fixed', instructionsPerRequest: count }], { root: dir }))
}

t.test("CPU per request beside the count: fixed's, measured in this tree", async (t) => {
  const { fixed } = await measureCpu(['fixed'], ROOT)
  t.ok(fixed > 0, `${fixed} µs a request`)
})
