'use strict'

// The catalogue of targets (tooling/targets.js): its rows hold together,
// it is the one file that lists target names, and adding a variant is its
// folder and one row: in a throwaway copy of the repository, a copy of
// fixed/ under a new name and one row make `npm run bench`,
// `npm run bench:compare` and verify's speed see it.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawn, execFileSync } = require('node:child_process')
const espree = require('espree')
const { CATALOGUE, TARGETS, targetsIn, theTargetIn } = require('../../tooling/targets')
const { RATIOS, MODES } = require('../../bench/judge/goals')
const { ROOT } = require('../../tooling/repo')
const { gitIn, throwawayRepository, commitAll } = require('../throwaway-repository')

// Two short real runs (bench, and bench:compare's base and head) besides
// the copy: more than tap's 30 s a file on a busy machine.
t.setTimeout(180000)

const KINDS = ['variant', 'reference', 'story']

t.test('every row: a name of its own, a kind, a server that is there, sets by name', async (t) => {
  const names = CATALOGUE.map((row) => row.name)
  t.same(names.filter((name, i) => names.indexOf(name) !== i), [], 'no name twice')
  for (const row of CATALOGUE) {
    t.ok(KINDS.includes(row.kind), `${row.name}: kind ${row.kind}`)
    t.ok(fs.existsSync(path.join(ROOT, row.entry)), `${row.name}: ${row.entry} is there`)
    t.ok(Object.values(row.sets).every((place) => place === true || (Number.isInteger(place) && place > 0)),
      `${row.name}: each set true or a place`)
    t.notOk('name' in TARGETS[row.name] || 'sets' in TARGETS[row.name] || 'kind' in TARGETS[row.name], `${row.name}: a run gets how it starts, not the row`)
  }
})

t.test('a set is in its places, then in the catalogue\'s order; a misspelt set is refused', async (t) => {
  const places = CATALOGUE.filter((row) => typeof row.sets.compare === 'number').sort((a, b) => a.sets.compare - b.sets.compare).map((row) => row.name)
  t.same(targetsIn('compare'), places)
  t.same(targetsIn('start'), CATALOGUE.filter((row) => row.sets.start).map((row) => row.name))
  t.throws(() => targetsIn('compar'), /no target is in the set "compar"/)
  t.throws(() => theTargetIn('start'), /the set "start" holds \d+ targets, not one/)
})

t.test('every goal divides two targets of the catalogue, and every mode runs catalogue targets', async (t) => {
  for (const { name, of, over } of RATIOS) t.ok(TARGETS[of] && TARGETS[over], `${name}: ${of} over ${over}`)
  for (const [mode, { protocol }] of Object.entries(MODES)) t.ok(protocol.targets.every((target) => TARGETS[target]), mode)
})

// Where a string literal equal to a target's name is no list of targets,
// and so is left out of the look for them:
// - test/: the tests name targets to check them (docs/ are not code);
// - slow/ and fast/: the case study's two variants, one line apart on
//   purpose (slow-fast-diff.test.js); they name the restify package;
// - tooling/targets.js: the catalogue itself;
// - restify and fastify in bench/measure/machine.js: the packages whose
//   versions a run records, which are also the reference servers' names.
const EXEMPT_FOLDERS = ['test', 'docs', 'slow', 'fast']
const CATALOGUE_FILE = path.join('tooling', 'targets.js')
const PACKAGE_NAMES = { [path.join('bench', 'measure', 'machine.js')]: ['restify', 'fastify'] }

// The string literals of a JavaScript file (whole template literals
// included, those with ${} not), as their text.
function stringLiterals (source) {
  return espree.tokenize(source, { ecmaVersion: 'latest' })
    .filter(({ type, value }) => type === 'String' || (type === 'Template' && value.startsWith('`') && value.endsWith('`')))
    .map(({ value }) => value.slice(1, -1))
}

t.test('no file outside the catalogue lists two or more target names', async (t) => {
  const files = execFileSync('git', ['ls-files', '-z', '*.js'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean)
    .map((file) => path.normalize(file))
    .filter((file) => !EXEMPT_FOLDERS.includes(file.split(path.sep)[0]) && file !== CATALOGUE_FILE)
  t.ok(files.length > 50, `${files.length} files read`)
  const listing = []
  for (const file of files) {
    const packages = PACKAGE_NAMES[file] ?? []
    const named = new Set(stringLiterals(fs.readFileSync(path.join(ROOT, file), 'utf8'))
      .filter((text) => TARGETS[text] && !packages.includes(text)))
    if (named.size >= 2) listing.push(`${file}: ${[...named].join(', ')}`)
  }
  t.same(listing, [], 'each list of targets comes from tooling/targets.js (targetsIn)')
  const sample = 'const x = [\'fast\', "fixed"] // \'slow\'\nconst y = `fixed-304` + `a$' + '{x}b`'
  t.same(stringLiterals(sample), ['fast', 'fixed', 'fixed-304'],
    'the look sees every kind of string literal, and no comment')
})

// What a comparison needs of this project, in a folder of its own:
// node_modules linked, not installed.
const TREE = ['bench', 'tooling', 'core', 'slow', 'fast', 'fixed', 'check', 'workshop', 'package.json', 'package-lock.json', '.gitignore']
const NEW = 'twin'
const ROW = `  { name: '${NEW}', kind: 'variant', entry: '${NEW}', sets: { start: true, compare: true, speed: true }, about: 'a copy of fixed' },\n`

// A copy of the project with fixed/ copied to twin/ and one row more in
// the catalogue, committed in a git repository of its own.
function copyWithTwin (t) {
  const dir = throwawayRepository(t, TREE, 'targets-twin')
  fs.cpSync(path.join(dir, 'fixed'), path.join(dir, NEW), { recursive: true })
  const catalogue = path.join(dir, CATALOGUE_FILE)
  const source = fs.readFileSync(catalogue, 'utf8')
  t.ok(source.includes('const CATALOGUE = [\n'), 'the catalogue is where the test adds its row')
  fs.writeFileSync(catalogue, source.replace('const CATALOGUE = [\n', `const CATALOGUE = [\n${ROW}`))
  gitIn(dir, 'init', '-q')
  commitAll(dir, 'a twin of fixed')
  return dir
}

// `node ARGS` in `dir`: { code, stdout, stderr }; killed if the test ends first.
function nodeIn (t, dir, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, CI: 'true' } })
    t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => { stdout += chunk })
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

// What the commands take from the catalogue in the copy, read there.
const LISTS = `
const { VARIANTS } = require('./tooling/repo')
const bench = require('./bench/options')
const compare = require('./bench/compare')
const { BESIDE } = require('./workshop/speed')
console.log(JSON.stringify({
  variants: VARIANTS,
  bench: bench.parseOptions(['--mode', 'start']).protocol.targets,
  benchNamed: bench.parseOptions(['--targets', '${NEW}']).protocol.targets,
  compare: compare.parseOptions([]).protocol.targets,
  compareNamed: compare.parseOptions(['--targets', '${NEW}']).protocol.targets,
  speed: BESIDE
}))
`

// On every Node line: what is checked is that the commands find the new
// row and start its server, not what they measure.
t.test('a variant added by its folder and one row: bench, bench:compare and verify\'s speed see it', async (t) => {
  const dir = copyWithTwin(t)
  const lists = await nodeIn(t, dir, ['-e', LISTS])
  t.equal(lists.code, 0, lists.stderr)
  const seen = JSON.parse(lists.stdout)
  t.ok(seen.variants.includes(NEW), `a variant the tools start by name: ${seen.variants}`)
  t.ok(seen.bench.includes(NEW), `npm start's targets: ${seen.bench}`)
  t.same(seen.benchNamed, [NEW], 'npm run bench -- --targets twin')
  t.ok(seen.compare.includes(NEW), `bench:compare's default targets: ${seen.compare}`)
  t.same(seen.compareNamed, [NEW], 'npm run bench:compare -- --targets twin')
  t.ok(seen.speed.includes(NEW), `verify's speed runs it beside yours: ${seen.speed}`)

  // One short real run of each command: the new server starts and is measured.
  const load = ['--targets', NEW, '--warmup', '0', '--duration', '0.5', '--connections', '2']
  const bench = await nodeIn(t, dir, ['bench', '--mode', 'start', ...load, '--rounds', '1', '--no-html'])
  t.equal(bench.code, 0, bench.stderr)
  t.match(bench.stdout, `Protocol (start): ${NEW}\n`)
  t.match(bench.stdout, new RegExp(`\\n${NEW} +[\\d,]+ `), 'its row in the table')
  // Two rounds are enough at alpha 0.5: the verdict is not what is tested.
  const compared = await nodeIn(t, dir, ['bench/compare', '--base', 'HEAD', ...load, '--rounds', '2', '--alpha', '0.5'])
  t.ok([0, 1].includes(compared.code), `bench:compare ran (exit ${compared.code}): ${compared.stderr}`)
  t.match(compared.stdout, new RegExp(`\\n${NEW} +[\\d.,]+ -> [\\d.,]+ `), 'its row in the comparison')
  t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, 'the base\'s worktree is gone')
})
