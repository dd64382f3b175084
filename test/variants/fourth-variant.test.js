'use strict'

// The catalogue decides (tooling/targets.js): a fourth variant is a folder
// and one catalogue row, nothing else. In a copy of the project, a folder
// `twin/` (fixed/'s code) and its row are added, and the tools a
// participant runs on a variant take it by its name: bench, verify,
// event-loop, soak; the docs tests pass as they are.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')
const { gitIn, throwawayRepository, commitAll } = require('../throwaway-repository')
const { skipOffMainLine } = require('../skips')

const NAME = 'twin'
// The docs tests but the README's commands in shells (those run the
// project's commands, not its pages).
const DOCS_TESTS = ['docs.test.js', 'page-figures.test.js', 'rendered.test.js', 'figures.test.js'].map((file) => `test/docs/${file}`)
const ROW = `  { name: '${NAME}', kind: 'variant', entry: '${NAME}', sets: { start: true }, about: "a fourth variant: fixed/'s code in a folder of its own" },\n`

// The project as committed and as changed here: every top-level entry git
// knows of.
function projectEntries () {
  const files = gitIn(ROOT, 'ls-files', '--cached', '--others', '--exclude-standard').split('\n')
  return [...new Set(files.filter((file) => fs.existsSync(path.join(ROOT, file))).map((file) => file.split('/')[0]))]
}

// After the fixed row: the catalogue's variants stay together.
function withRow (catalogue) {
  const fixedRow = catalogue.split('\n').findIndex((line) => line.startsWith("  { name: 'fixed', kind: 'variant'"))
  if (fixedRow === -1) throw new Error("tooling/targets.js has no row for fixed: the test cannot place the fourth's")
  const lines = catalogue.split('\n')
  lines.splice(fixedRow + 1, 0, ROW.trimEnd())
  return lines.join('\n')
}

t.test('a fourth variant is a folder and one catalogue row', { skip: skipOffMainLine('the house with a fourth variant') }, async (t) => {
  const copy = throwawayRepository(t, projectEntries(), 'fourth-variant')
  gitIn(copy, 'init', '-q')
  commitAll(copy, 'the project')
  fs.cpSync(path.join(copy, 'fixed'), path.join(copy, NAME), { recursive: true })
  const catalogue = path.join(copy, 'tooling', 'targets.js')
  fs.writeFileSync(catalogue, withRow(fs.readFileSync(catalogue, 'utf8')))
  t.same(gitIn(copy, 'diff', '--numstat').split('\n'), ['1\t0\ttooling/targets.js'], 'changed: one line in the catalogue')
  t.ok(gitIn(copy, 'ls-files', '--others', '--exclude-standard').split('\n').every((file) => file.startsWith(`${NAME}/`)), `added: ${NAME}/`)

  // Each command as a participant runs it, exit 0, its output kept for a
  // failure's message.
  const run = (what, ...args) => {
    const result = spawnSync(process.execPath, args, { cwd: copy, encoding: 'utf8', env: { ...process.env, INIT_CWD: copy } })
    if (!t.equal(result.status, 0, `${what} exits 0`)) t.comment(result.stdout.slice(-2000) + result.stderr.slice(-2000))
    return result.stdout
  }
  const bench = run('bench', 'bench', '--targets', `${NAME},fixed`, '--rounds', '1', '--warmup', '0.5', '--duration', '1')
  t.match(bench, new RegExp(`^ *${NAME} `, 'm'), 'bench measures it beside fixed')
  const verify = run('verify', path.join('workshop', 'verify.js'), NAME, '--no-speed')
  t.match(verify, `Verifying ${NAME}: node ${NAME}`)
  t.match(verify, 'contract ✓   level 1 ✓   level 2 ✓   level 3 ✓', 'every level passes, as fixed\'s')
  const eventLoop = run('event-loop', path.join('diagnose', 'event-loop.js'), NAME, '--duration', '1')
  t.match(eventLoop, new RegExp(`^${NAME} (?:leaks|does not leak|is not judged for a leak): `, 'm'), 'event-loop names it in its verdict')
  const soak = run('soak', 'soak', NAME, '--duration', '3', '--connections', '10')
  t.match(soak, `Soak: ${NAME}, `)
  // tap in the copy, as its own run: none of this run's tap settings.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(?:TAP|_TAPJS_)/.test(key) && key !== 'NODE_OPTIONS'))
  const docs = spawnSync(process.execPath, [path.join(copy, 'node_modules', 'tap', 'dist', 'esm', 'run.mjs'), '-R', 'terse', ...DOCS_TESTS],
    { cwd: copy, encoding: 'utf8', env })
  t.equal(docs.status, 0, 'the docs tests pass in the copy')
  if (docs.status !== 0) t.comment(docs.stdout.slice(-3000))
})
