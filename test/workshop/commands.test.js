'use strict'

// The workshop's commands around verify's levels (verify.test.js) and its
// speed (workshop.test.js): workshop new, --watch, a bad --level, and the
// diagnosis commands on a copy. Nothing here is timed, so it runs beside
// other files.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { once } = require('node:events')
const { spawn, spawnSync } = require('node:child_process')
const { newCopy, command: workshopCommand } = require('../../workshop')
const { ROOT } = require('../../tooling/repo')
const { skipWithoutSignals } = require('../skips')
const { readText } = require('../read-text')
const { readmeOutput, unmatchedLine } = require('../readme-output')
const { TEST_COPY_PREFIX, testCopyName, oneLineFixCopy } = require('./copies')

// --watch waits up to 30 s a save, and trace-leak and the soak start servers:
// more than tap's 30 s a file on a busy machine.
t.setTimeout(2 * 60 * 1000)

t.test('workshop new: a copy of slow/ that git ignores, ready to run', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'workshop-'))
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }))
  fs.cpSync(path.join(ROOT, 'slow'), path.join(root, 'slow'), { recursive: true })
  fs.mkdirSync(path.join(root, '.git'))
  const folder = newCopy('mine', { root })
  t.equal(folder, path.join(root, 'mine'))
  // The code as it is; the one comment that names the folder names the copy.
  const asSlowWouldSay = (text) => text.replaceAll('`node mine` starts', '`node slow` or `node fast` starts')
  for (const file of fs.readdirSync(path.join(ROOT, 'slow'))) {
    t.equal(asSlowWouldSay(readText(path.join(folder, file))), readText(path.join(ROOT, 'slow', file)), `${file} copied as it is`)
  }
  t.match(fs.readFileSync(path.join(folder, 'index.js'), 'utf8'), /^\/\/ `node mine` starts this server; require\(\) builds it/m, 'its comment speaks of the copy')
  t.match(fs.readFileSync(path.join(folder, '.gitignore'), 'utf8'), /^\*$/m, 'the copy ignores itself')
  t.equal(fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8'), '/mine/\n', 'and the checkout lists it, for the lint')
  t.throws(() => newCopy('mine', { root }), /mine\/ already exists/)
  t.throws(() => newCopy('../out', { root }), /the name must be letters, digits/)
})

t.test('workshop new says what it made first, then what to do, as README step 5 shows it', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'workshop-'))
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }))
  fs.cpSync(path.join(ROOT, 'slow'), path.join(root, 'slow'), { recursive: true })
  let output = ''
  const code = await workshopCommand.main(['new'], { stdout: { write: (text) => { output += text } }, root, gitExclude: false })
  t.equal(code, 0)
  t.ok(fs.existsSync(path.join(root, 'mine', 'etag.js')), 'mine/ made')
  t.match(output, /^Made mine\/, your copy of slow\/ to fix\. Git ignores it\.\n/, 'the verdict first')
  t.same(output.split('\n').filter((line) => line.length > 100), [], 'every line within 100 characters')
  t.equal(unmatchedLine(readmeOutput('5', 'npm run workshop -- new'), output), null, 'README step 5 shows these lines, in this order, by shape')
})

t.test('verify --watch checks again when a file is saved, and stops on Ctrl-C', { skip: skipWithoutSignals }, async (t) => {
  const folder = oneLineFixCopy(t, 'workshop-test-watched')
  const child = spawn(process.execPath, ['workshop/verify.js', folder, '--watch', '--level', '1'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => child.kill('SIGKILL'))
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => { output += chunk })
  const until = async (pattern) => {
    const deadline = Date.now() + 30000
    while (!pattern.test(output) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    t.match(output, pattern)
  }
  await until(/Watching .* for changes/)
  fs.appendFileSync(path.join(folder, 'etag.js'), '// saved again\n')
  await until(/--- etag\.js changed: checking again ---[\s\S]*contract ✓ {3}level 1 ✓[\s\S]*Speed: not measured with --watch\. Run verify without it to measure the speed\.\n[\s\S]*Watching/)
  t.equal((output.match(/contract ✓/g) || []).length, 2, 'two runs, one per save')
  child.kill('SIGINT')
  const [code] = await once(child, 'exit')
  t.equal(code, 0, 'the last run held level 1')
})

t.test('a level that does not exist is a usage error', async (t) => {
  const bad = spawnSync(process.execPath, ['workshop/verify.js', 'fixed', '--level', '4'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(bad.status, 2)
  t.match(bad.stderr, /--level must be an integer from 0 to 3, got "4"/)
})

t.test('trace-leak and soak take a workshop copy where they took a variant', async (t) => {
  const { traceLeak } = require('../../diagnose/trace-leak')
  const { soak } = require('../../soak')
  const leaking = newCopy(testCopyName('workshop-test-leaking'), { gitExclude: false })
  t.teardown(() => fs.rmSync(leaking, { recursive: true, force: true }))
  // Two at once, as from two terminals: each runs in a folder of its own.
  const [traced, tracedSlow] = await Promise.all([traceLeak({ entry: leaking }), traceLeak()])
  t.same(traced.adder, { functionName: 'attachAfterEvent', location: `${path.basename(leaking)}/etag.js:25:12` }, 'the copy\'s own line')
  t.same(tracedSlow.adder, { functionName: 'attachAfterEvent', location: 'slow/etag.js:25:12' }, 'slow\'s line, traced at the same time')
  t.not(traced.copyFolder, tracedSlow.copyFolder, 'each in its own folder')
  for (const { copyFolder } of [traced, tracedSlow]) t.notOk(fs.existsSync(copyFolder), `${copyFolder}: removed`)

  const fixed = oneLineFixCopy(t, 'workshop-test-soaked')
  const quiet = await traceLeak({ entry: fixed })
  t.equal(quiet.warning, null, 'no warning from the fixed copy')
  const report = await soak(fixed, { duration: 2, connections: 10 })
  t.equal(report.variant, path.basename(fixed), 'named as the user named it')
  for (const check of report.checks) t.ok(check.pass, `${check.name}: ${check.detail}`)
})

// tap ends a file at its time limit without running its teardown, so a
// test's copy can outlive its test: the next npm test must not fail at its
// lint on the copy's wrong fix (seen after a busy run: a syntax error left
// in the root).
t.test("a test's copy left behind is passed over by git and by npm test's lint", async (t) => {
  const folder = path.join(ROOT, testCopyName('left-behind'))
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }))
  fs.mkdirSync(folder)
  fs.writeFileSync(path.join(folder, 'etag.js'), 'function (\n')
  const ignored = spawnSync('git', ['check-ignore', '-q', `${path.basename(folder)}/etag.js`], { cwd: ROOT })
  if (ignored.error || ignored.status === 128) t.comment(`no git repository to ask (${ignored.error?.code ?? 'status 128'})`)
  else t.equal(ignored.status, 0, `git ignores ${TEST_COPY_PREFIX}*/`)
  const eslint = path.join(path.dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js')
  const lint = spawnSync(process.execPath, [eslint, `${path.basename(folder)}/etag.js`], { cwd: ROOT, encoding: 'utf8' })
  t.equal(lint.status, 0, lint.stdout + lint.stderr)
  t.match(lint.stdout + lint.stderr, /File ignored because of a matching ignore pattern/, 'the lint passes it over')
})
