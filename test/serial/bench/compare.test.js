'use strict'

// bench:compare (docs/ci-gate.md, "Gate a change against its base"): the
// paired test and the verdicts on made-up rounds, the options it refuses,
// and real runs on a throwaway git repository holding this project's files
// in two commits, the second with fixed made slower: the regression caught
// one way, the improvement reported the other, and exit 2 with one clear
// line for a ref that does not exist, a directory without git, a target the
// base does not have, a base that does not start and one that does not
// install.

const t = require('tap')
const { pairsOf } = require('../../bench/bench-helper')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { pairedChange, signedRankPValue } = require('../../../bench/judge/stats')
const { judgePairs } = require('../../../bench/compare/verdict')
const { parseOptions } = require('../../../bench/compare')
const { renderTable } = require('../../../bench/compare/print')
const { ROOT } = require('../../../tooling/repo')
const { skipOffMainLine } = require('../../skips')
const { gitIn, throwawayRepository, commitAll } = require('../../throwaway-repository')

// Two real comparisons and five refused ones: more than tap's 30 s a file.
t.setTimeout(150000)

t.test('the signed-rank test and its interval', async (t) => {
  t.equal(signedRankPValue([1, 2, 3]), 1 / 8, 'every round above: the smallest p-value of 3 rounds')
  t.equal(signedRankPValue([-1, 2, 3]), 2 / 8, 'the smallest rank below: one more assignment as extreme')
  t.equal(signedRankPValue([-100, 2, 3]), 5 / 8, 'ranks, not values: the largest below weighs 3, not 100')

  const base = [100, 100, 100, 100, 100, 100, 100, 100]
  const fivePercent = pairedChange(base, [104, 106, 105, 103, 107, 105, 104, 106], { alpha: 0.01 })
  t.equal(fivePercent.pWorse, 1 / 256)
  t.ok(Math.abs(fivePercent.change - 0.05) < 0.002, `the estimate: ${fivePercent.change}`)
  t.ok(fivePercent.interval[0] > 0.03 && fivePercent.interval[1] < 0.07, `the interval holds it: ${fivePercent.interval}`)

  const oneDisturbed = pairedChange(base, [104, 106, 105, 103, 107, 105, 104, 60], { alpha: 0.05 })
  t.ok(oneDisturbed.change > 0.03, `one round at -40 % moves the estimate by little: ${oneDisturbed.change}`)

  const tooFew = pairedChange([1, 1, 1], [2, 2, 2], { alpha: 0.05 })
  t.equal(tooFew.resolvable, false, '3 rounds cannot reach p < 0.05 one-sided with 1/8')
  t.same(tooFew.interval, [-1, Infinity])
})

t.test('the verdicts: a regression reaching the allowance fails, the rest is reported', async (t) => {
  const options = { alpha: 0.05, maxRegression: 0.05 }
  const judge = (changes) => judgePairs(pairsOf('fixed', changes), { targets: ['fixed'], ...options })

  const regressed = judge([0.06, 0.07, 0.05, 0.08, 0.06, 0.07, 0.05, 0.06])
  t.equal(regressed.comparisons[0].verdict, 'REGRESSION')
  t.match(regressed.failures[0], /^fixed: CPU per request \+6\.\d % \(50\.00 -> 53\.\d\d µs\), interval \+\d\.\d % … \+\d\.\d %, p = 0\.0039 over 8 rounds/)

  const within = judge([0.01, 0.012, 0.011, 0.013, 0.009, 0.01, 0.012, 0.011])
  t.equal(within.comparisons[0].verdict, 'slower, within +5.0 %')
  t.same(within.failures, [])

  t.equal(judge([-0.1, -0.12, -0.09, -0.11, -0.1, -0.13, -0.1, -0.11]).comparisons[0].verdict, 'improvement')

  const noisy = judge([0.2, -0.15, 0.1, -0.2, 0.15, -0.1, 0.05, -0.05])
  t.equal(noisy.comparisons[0].verdict, 'no significant change')
  t.match(noisy.comparisons[0].note, /cannot rule out a regression that large/)

  const three = judgePairs([...pairsOf('fixed', [0.06, 0.07, 0.05, 0.08, 0.06, 0.07, 0.05, 0.06]), ...pairsOf('fast', [0, 0, 0, 0, 0, 0, 0, 0])],
    { targets: ['fixed', 'fast'], ...options })
  t.equal(three.alphaPerTarget, 0.025, 'alpha split over the targets')
})

t.test('two rounds (the CPU beside instruction counts): no interval or p printed, not -100 % … +inf %', async (t) => {
  const result = judgePairs(pairsOf('fixed', [0.02, -0.01]), { targets: ['fixed'], alpha: 0.05, maxRegression: 0.05 })
  result.maxRegression = 0.05
  result.alpha = 0.05
  const row = renderTable(result).split('\n').find((line) => line.trimStart().startsWith('fixed'))
  t.match(row, /n\/a \(2 rounds\)/, 'the interval says why there is none')
  t.notMatch(row, /inf|-100\.0 %/)
  t.equal(result.comparisons[0].verdict, 'cannot tell')
})

t.test('options it refuses, before anything starts', async (t) => {
  t.throws(() => parseOptions(['--rounds', '4']), /--rounds 4 cannot show a change at alpha 0.05 over 3 target\(s\): the exact test needs at least 6 rounds/)
  t.throws(() => parseOptions(['--targets', 'nope']), /unknown target "nope"/)
  const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-')), 'server.js')
  fs.writeFileSync(outside, '')
  t.teardown(() => fs.rmSync(path.dirname(outside), { recursive: true, force: true }))
  t.throws(() => parseOptions(['--target', `mine=${outside}`]), /--target mine: .*server\.js is outside the repository, so the base cannot have it/)
  // The repository reached through a symbolic link (a clone under one, or
  // macOS's /var, a link to /private/var, where the temporary folder is):
  // what is inside stays inside.
  const linkedRoot = path.join(path.dirname(outside), 'linked-repo')
  fs.symlinkSync(ROOT, linkedRoot, 'junction')
  t.equal(parseOptions(['--target', `mine=${path.join(linkedRoot, 'fixed')}`]).definitions.mine.entry, 'fixed', 'a folder of the repository, through a link')
  t.equal(parseOptions(['--target', `mine=${path.join(linkedRoot, 'fixed', 'index.js')}`]).definitions.mine.entry, path.join('fixed', 'index.js'), 'a file')
  t.throws(() => parseOptions(['--target', `mine=${path.join(linkedRoot, '..', 'server.js')}`]), /is outside the repository/, 'and beside the link, outside')
  t.throws(() => parseOptions(['--cpu-tax', 'slow=5']), /not a target of this run/)
  t.throws(() => parseOptions(['--rounds', '17']), /--rounds must be an integer from 2 to 16/)
  t.equal(parseOptions([]).protocol.targets.join(','), 'fixed,fixed-304,fast')
})

// This project's files a comparison needs, in a git repository of their
// own: node_modules linked, not installed.
const TREE = ['bench', 'tooling', 'core', 'slow', 'fast', 'fixed', 'package.json', 'package-lock.json', '.gitignore']
// Work, not a wait: a busy wait for the clock costs less CPU the more the
// process is preempted, and beside npm run cpu-hog 200 µs of waiting was
// lost in fixed's own 400 to 900 µs a request there (the improvement read
// -17 %, p = 0.094, 2026-11-25). 600,000 xorshift steps are about 1 ms of
// CPU (AMD EPYC, Node 24.21.0), twenty times fixed's cost on a quiet machine.
const SLOWDOWN = '  { let x = globalThis.seedSlowdown | 1; for (let i = 0; i < 600000; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5 } globalThis.seedSlowdown = x } // about 1 ms of work more per request\n'

function compareIn (dir, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'bench', 'compare'), ...args], { cwd: dir, env: { ...process.env, CI: 'true' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

// Five rounds of a second's load: 1/32 is under alpha 0.05 for one target.
const SHORT = ['--targets', 'fixed', '--rounds', '5', '--warmup', '0.2', '--duration', '0.5', '--connections', '10']

// The verdicts are CPU time measured; the worktree's removal and the refusals
// below are no measurement, and run on every line.
t.test('two commits, one made slower: caught as a regression one way, an improvement the other', {
  skip: skipOffMainLine("bench:compare's verdict (a regression, an improvement) is CPU time measured")
}, async (t) => {
  const dir = throwawayRepository(t, TREE, 'bench-compare-repo')
  gitIn(dir, 'init', '-q')
  const fast = commitAll(dir, 'as it is')
  const handler = path.join(dir, 'fixed', 'index.js')
  const source = fs.readFileSync(handler, 'utf8')
  t.ok(source.includes('function serveSeed (req, res, next) {\n'), 'the route handler is where the test slows it')
  fs.writeFileSync(handler, source.replace('function serveSeed (req, res, next) {\n', `function serveSeed (req, res, next) {\n${SLOWDOWN}`))
  const slower = commitAll(dir, 'about 1 ms of work more per request')

  const file = (name) => path.join(dir, name)
  const markdown = file('summary.md')
  const regression = await compareIn(dir, ['--base', fast, ...SHORT, '--markdown', markdown,
    '--json', file('run.json'), '--bencher-json', file('bencher.json'), '--github-benchmark-json', file('github.json')])
  t.equal(regression.code, 1, regression.stderr)
  t.match(regression.stdout, `Base: ${fast.slice(0, 10)} (${fast}: as asked), checked out in a temporary worktree; dependencies: the same lockfile as the head: its node_modules reused`)
  t.match(regression.stdout, `Head: ${slower.slice(0, 10)} (the working tree, no uncommitted change)`)
  t.match(regression.stdout, /\nfixed +[\d.]+ -> [\d.,]+ .* REGRESSION\n/)
  t.match(regression.stderr, /^REGRESSION: head costs more CPU a request than base in fixed\.\n {2}- fixed: CPU per request \+\d+\.\d %/)
  t.match(fs.readFileSync(markdown, 'utf8'), /^### bench:compare: `\w{10}` \(base\) → `\w{10}` \(head\)\n\n\*\*REGRESSION\*\*\n- fixed: CPU per request/)
  const result = JSON.parse(fs.readFileSync(file('run.json'), 'utf8'))
  t.same([result.base.commit, result.head.commit, result.pairs.length], [fast, slower, 5], 'the JSON: both commits, every round')
  t.same(result.pairs.map((pair) => pair.first), ['base', 'head', 'head', 'base', 'base'], 'ABBA')
  const fixed = result.comparisons[0].metrics.cpuMicrosPerRequest
  t.ok(result.pairs.every((pair) => pair.head.cpuMicrosPerRequest > pair.base.cpuMicrosPerRequest), 'the head cost more in every round')
  const bencher = JSON.parse(fs.readFileSync(file('bencher.json'), 'utf8'))
  t.equal(bencher.fixed['cpu-change-against-base'].value, fixed.change, 'Bencher: the change beside the head\'s figures')
  t.ok(bencher.fixed['cpu-microseconds-per-request'].value > 0)
  const github = JSON.parse(fs.readFileSync(file('github.json'), 'utf8'))
  t.match(github.find((entry) => entry.name === 'fixed - CPU per request change against base'), { unit: '%', value: fixed.change * 100 })
  t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, 'the base\'s worktree is gone')

  gitIn(dir, 'checkout', '-q', fast)
  const improvement = await compareIn(dir, ['--base', slower, ...SHORT])
  t.equal(improvement.code, 0, improvement.stderr)
  t.match(improvement.stdout, /\nfixed +[\d.,]+ -> [\d.]+ .* improvement\n/)
  t.match(improvement.stdout, /\nNo regression beyond \+5\.0 %\. head costs less than base in fixed\.\n {2}CPU per request, head against base: fixed -\d+\.\d %\n$/)
})

t.test('a comparison that crashes (its stdout closed) still removes the base\'s worktree', async (t) => {
  const dir = throwawayRepository(t, TREE, 'bench-compare-repo')
  gitIn(dir, 'init', '-q')
  commitAll(dir, 'as it is')
  // The reader goes after the first line, as `| head -1` does: the next
  // line's write fails (EPIPE), an uncaught error.
  const child = spawn(process.execPath, [path.join(dir, 'bench', 'compare'), '--base', 'HEAD', ...SHORT], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => child.kill('SIGKILL'))
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  child.stdout.once('data', () => child.stdout.destroy())
  const code = await new Promise((resolve) => child.on('close', resolve))
  t.equal(code, 1, 'it crashed')
  t.match(stderr, /EPIPE/)
  t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, 'no worktree left behind')
})

t.test('bad input: exit 2 and one clear line', async (t) => {
  const dir = throwawayRepository(t, TREE, 'bench-compare-repo')
  const notGit = await compareIn(dir, SHORT)
  t.equal(notGit.code, 2)
  t.match(notGit.stderr, /^bench:compare: .* is not in a git checkout/)

  gitIn(dir, 'init', '-q')
  const first = commitAll(dir, 'as it is')
  const noRef = await compareIn(dir, ['--base', 'no-such-branch', ...SHORT])
  t.equal(noRef.code, 2)
  t.match(noRef.stderr, /^bench:compare: --base no-such-branch: no such commit in /)

  fs.mkdirSync(path.join(dir, 'mine'))
  fs.writeFileSync(path.join(dir, 'mine', 'index.js'), "require('../fixed/index.js')\n")
  commitAll(dir, 'a server the base does not have')
  // Two targets: alpha split in two needs a sixth round.
  const missing = await compareIn(dir, ['--base', first, ...SHORT, '--rounds', '6', '--target', `mine=${path.join(dir, 'mine')}`])
  t.equal(missing.code, 2)
  t.match(missing.stderr, `bench:compare: target mine: mine does not exist at the base (${first.slice(0, 10)})`)

  fs.writeFileSync(path.join(dir, 'fixed', 'index.js'), "'use strict'\nthrow new Error('this base does not start')\n")
  const broken = commitAll(dir, 'a base that does not start')
  gitIn(dir, 'checkout', '-q', first, '--', 'fixed')
  const notStarting = await compareIn(dir, ['--base', broken, ...SHORT])
  t.equal(notStarting.code, 2)
  t.match(notStarting.stderr, /^bench:compare: base's fixed did not start: .* exited \(code 1\) before listening:\n[^]*Error: this base does not start/)

  fs.writeFileSync(path.join(dir, 'package-lock.json'), '{ not json')
  const unreadable = commitAll(dir, 'a base that does not install')
  gitIn(dir, 'checkout', '-q', first, '--', 'package-lock.json')
  const notInstalling = await compareIn(dir, ['--base', unreadable, ...SHORT])
  t.equal(notInstalling.code, 2)
  t.match(notInstalling.stderr, /^bench:compare: the base did not install \(npm ci exited \d+\):\n/)
  t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, 'no worktree left behind')
})
