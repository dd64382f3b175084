'use strict'

// `npm run bench:history`: `changes FILE [--json]`, any series in a JSON
// file, its change points in words or as JSON; `record` and the report's
// bad input; bad input a clear message and exit 2.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { runCommand } = require('../../../tooling/command')
const { command } = require('../../../bench/history')

async function run (argv) {
  let stdout = ''
  let stderr = ''
  const code = await runCommand(command, argv, { stdout: { write: (text) => { stdout += text } }, stderr: { write: (text) => { stderr += text } } })
  return { code, stdout, stderr }
}

// tap's testdir() makes the folder afresh on each call: once a test.
const folders = new WeakMap()
function seriesFile (t, series) {
  if (!folders.has(t)) folders.set(t, { dir: t.testdir(), files: 0 })
  const folder = folders.get(t)
  const file = path.join(folder.dir, `series-${++folder.files}.json`)
  fs.writeFileSync(file, typeof series === 'string' ? series : JSON.stringify(series))
  return file
}

const STEP = [...new Array(20).fill(1000), ...new Array(20).fill(1001)].map((value, i) => value + (i % 3) * 0.01)

t.test('--json: one object per change point, index the first point after it', async (t) => {
  const { code, stdout } = await run(['changes', seriesFile(t, STEP), '--json'])
  t.equal(code, 0)
  const changes = JSON.parse(stdout)
  t.match(changes, [{ index: 20, weak: false, before: { from: 0, to: 20 }, after: { from: 20, to: 40 } }])
  t.ok(changes[0].pValue < 1e-3, `Student's p: ${changes[0].pValue}`)
  t.ok(Math.abs(changes[0].shift.percent - 0.1) < 0.001, `+0.1 %: ${changes[0].shift.percent}`)
  const [low, high] = changes[0].shift.percentInterval
  t.ok(low <= changes[0].shift.percent && changes[0].shift.percent <= high, `inside its interval: ${low} to ${high}`)
})

t.test('in words: where, how much, how sure', async (t) => {
  const { code, stdout } = await run(['changes', seriesFile(t, STEP)])
  t.equal(code, 0)
  t.match(stdout, /^change at index 20: points 0 to 19, median 1,000\.01, then 20 to 39, median 1,001\.01: \+0\.100 % \(\+0\.09\d to \+0\.10\d %\), p = 1\.9e-69\n$/)
  t.equal((await run(['changes', seriesFile(t, new Array(30).fill(5))])).stdout, 'no change point in 30 points\n')
})

t.test('a p under 1e-300 says so; --min-magnitude leaves out a smaller step', async (t) => {
  // 200 points a side, a step of a thousand in a noise of one: p is 0 in a double.
  const far = [...new Array(200).fill(0).map((_, i) => i % 2), ...new Array(200).fill(1000).map((value, i) => value + i % 2)]
  t.match((await run(['changes', seriesFile(t, far)])).stdout, /^change at index 200: .*, p < 1e-300\n$/)
  t.equal((await run(['changes', seriesFile(t, STEP), '--min-magnitude', '0.2'])).stdout, 'no change point in 40 points\n', '+0.1 % under 0.2 %')
  t.match((await run(['changes', seriesFile(t, STEP), '--min-magnitude', '0.05'])).stdout, /^change at index 20: /, '+0.1 % over 0.05 %')
})

t.test('--test permutation: the shuffles, whose smallest p is 1/200', async (t) => {
  const { stdout } = await run(['changes', seriesFile(t, STEP), '--json', '--test', 'permutation'])
  t.match(JSON.parse(stdout), [{ index: 20, weak: false, pValue: 0.005 }])
  const four = [70000, 70030, 70290, 70320]
  t.equal((await run(['changes', seriesFile(t, four), '--test', 'permutation'])).stdout, 'no change point in 4 points\n', 'four points: no p under 1/3')
  t.match((await run(['changes', seriesFile(t, four)])).stdout, /^weak change at index 2: .* \+0\.414 % .*, p = 0\.00\d\n$/, "Student's test: a weak change, to be measured")
})

t.test('bad input: a clear message, exit 2', async (t) => {
  for (const [argv, message] of [
    [['sideways'], /unknown subcommand "sideways": record, confirm, retract, changes, or none for the report/],
    [['changes', seriesFile(t, [1, 2]), '--test', 'bayes'], /--test: one of student, permutation/],
    [['changes', seriesFile(t, [1, 2]), '--min-magnitude', 'lots'], /--min-magnitude: a percentage, 0 or more, not "lots"/],
    [['changes', seriesFile(t, [1, 2]), '--min-magnitude', '1', '--test', 'permutation'], /--min-magnitude: with Student's test only/],
    [['confirm', 'HEAD'], /unexpected argument "HEAD"/],
    [['retract'], /retract needs a REF/],
    [['retract', 'HEAD'], /retract needs --targets LIST/],
    [['retract', 'no-such-commit-here', '--targets', 'fixed'], /no-such-commit-here: no such commit/],
    [['record', '--targets', 'fixed,nope'], /--targets: unknown target "nope"/],
    [['record', 'no-such-commit-here', '--targets', 'fixed'], /no-such-commit-here: no such commit/],
    [['changes'], /changes needs a FILE/],
    [['changes', path.join(path.dirname(seriesFile(t, [])), 'missing.json')], /cannot read .*missing\.json: ENOENT/],
    [['changes', seriesFile(t, '[1, 2,')], /is not JSON/],
    [['changes', seriesFile(t, { values: [1, 2] })], /is not a JSON array of numbers/],
    [['changes', seriesFile(t, [1, '2', 3])], /is not a JSON array of numbers/]
  ]) {
    const { code, stderr } = await run(argv)
    t.equal(code, 2, argv.join(' '))
    t.match(stderr, message)
  }
})
