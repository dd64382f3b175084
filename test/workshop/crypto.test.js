'use strict'

// The crypto exercise (workshop/exercises.js, workshop/levels/crypto/): workshop new crypto and list, then verify's
// levels on the story's own servers copied and on the wrong fixes people write (fixtures/crypto/), each with its hint.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { newCopy, command: workshopCommand } = require('../../workshop')
const { exerciseOf, exerciseNamed, EXERCISES } = require('../../workshop/exercises')
const { verify } = require('../../workshop/verify')
const { compareSpeed, exerciseSides } = require('../../workshop/speed')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { verifyQuietly, unwrapped } = require('./verify-quietly')
const { cryptoCopy } = require('./copies')

// Several servers started and loaded in turn, on a machine perhaps busy.
t.setTimeout(2 * 60 * 1000)

const FIXTURES = path.join(__dirname, 'fixtures', 'crypto')

function storyRoot (t) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'workshop-'))
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }))
  fs.cpSync(path.join(ROOT, 'stories', 'crypto'), path.join(root, 'stories', 'crypto'), { recursive: true })
  fs.mkdirSync(path.join(root, '.git'))
  return root
}

t.test('workshop new crypto: the story\'s slow server as a folder that says its exercise', async (t) => {
  const root = storyRoot(t)
  const folder = newCopy(undefined, { root, exercise: 'crypto' })
  t.equal(folder, path.join(root, 'mine-crypto'), 'named mine-crypto by default')
  t.same(fs.readdirSync(folder).sort(), ['.gitignore', 'account.js', 'exercise.json', 'index.js'])
  const slow = readText(path.join(ROOT, 'stories', 'crypto', 'slow.js'))
  const asSlowWouldSay = (text) => text.replace('// `node mine-crypto`', '// `node stories/crypto/slow.js`').replaceAll("require('../", "require('../../")
  t.equal(asSlowWouldSay(readText(path.join(folder, 'index.js'))), slow, 'slow.js, its requires one folder up and its first comment naming the copy')
  t.match(readText(path.join(folder, 'index.js')), /^\/\/ `node mine-crypto`: the case study's fixed server/m)
  t.equal(readText(path.join(folder, 'account.js')), readText(path.join(ROOT, 'stories', 'crypto', 'account.js')), 'account.js as it is')
  t.same(JSON.parse(fs.readFileSync(path.join(folder, 'exercise.json'), 'utf8')), { exercise: 'crypto' }, 'the marker verify reads')
  t.equal(exerciseOf(folder).name, 'crypto', 'verify knows it from the copy')
  t.equal(fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8'), '/mine-crypto/\n', 'the checkout lists it, for the lint')
  t.throws(() => newCopy(undefined, { root, exercise: 'crypto' }), /mine-crypto\/ already exists/)
  t.throws(() => newCopy('x', { root, exercise: 'nope' }), /no exercise "nope": the exercises are leak, crypto/)
})

t.test('workshop new crypto NAME says what it made, then the commands', async (t) => {
  const root = storyRoot(t)
  let output = ''
  const code = await workshopCommand.main(['new', 'crypto', 'mine2'], { stdout: { write: (text) => { output += text } }, root, gitExclude: false })
  t.equal(code, 0)
  t.ok(fs.existsSync(path.join(root, 'mine2', 'index.js')))
  t.match(output, /^Made mine2\/, your copy of the crypto story's slow server to fix\. Git ignores it\.\n/, 'the verdict first')
  t.match(output, /\n {2}node mine2 +starts it, as `node stories\/crypto\/slow\.js` does\n {2}npm run verify -- mine2 +checks it: /)
  t.same(output.split('\n').filter((line) => line.length > 100), [], 'every line within 100 characters')
})

t.test('workshop list: each exercise with its time and what it teaches', async (t) => {
  let output = ''
  const code = await workshopCommand.main(['list'], { stdout: { write: (text) => { output += text } } })
  t.equal(code, 0)
  for (const { name, minutes, teaches } of EXERCISES) t.ok(output.includes(`  ${name.padEnd(6)}  ${minutes} min`) && output.includes(teaches), `${name} listed`)
  t.match(output, /^2 exercises: each a slow server to copy, fix and verify\.\n/)
  t.same(output.split('\n').filter((line) => line.length > 100), [], 'every line within 100 characters')
})

t.test('a variant, a leak copy and a story\'s servers: the exercise each belongs to', async (t) => {
  t.equal(exerciseOf(path.join(ROOT, 'slow')).name, 'leak')
  t.equal(exerciseOf(path.join(ROOT, 'stories', 'crypto', 'fixed.js')).name, 'crypto')
  t.equal(exerciseOf(path.join(ROOT, 'stories', 'logging', 'slow.js')).name, 'leak', 'a story with no exercise yet: the default')
})

t.test('the copy runs with node FOLDER', async (t) => {
  const folder = cryptoCopy(t, 'crypto-runs')
  const run = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(folder)}); console.log('built')`], { cwd: ROOT, encoding: 'utf8' })
  t.equal(run.status, 0, run.stderr)
  t.match(run.stdout, /built/, 'its requires resolve')
})

t.test("the story's fixed server, copied: every level holds", async (t) => {
  const folder = cryptoCopy(t, 'crypto-fixed', path.join(ROOT, 'stories', 'crypto', 'fixed.js'))
  const { code, passed, output } = await verifyQuietly(folder)
  t.equal(code, 0, output)
  t.same(passed, [true, true, true])
  t.match(output, /, the crypto exercise: node test-copy-crypto-fixed-\d+, started/)
  t.match(output, /contract ✓ {3}level 1 ✓ {3}level 2 ✓\nEvery level holds: the key derived once per credential, off the event loop, and no lever for an attacker\.\n/)
  t.notMatch(output, /✗/)
})

t.test('the slow copy, as workshop new makes it: the lesson fails, with both hints', async (t) => {
  const folder = cryptoCopy(t, 'crypto-slow')
  const { code, passed, output } = await verifyQuietly(folder)
  t.equal(code, 1)
  t.same(passed, [true, false, true], output)
  const text = unwrapped(output)
  t.match(text, /✗ new passwords do not hold the event loop\n[\s\S]*hint: each new password's key is derived on the event loop \(pbkdf2Sync\)/)
  t.match(text, /✗ the same credentials are not derived again\n[\s\S]*hint: every request with the same credentials still derives the key/)
  t.match(output, /\nThe key derivation is still paid on the hot path: level 1 fails\.\n/)
})

t.test('a wrong fix: crypto.pbkdf2 on every request, with no bound', async (t) => {
  const folder = cryptoCopy(t, 'crypto-async', path.join(FIXTURES, 'async-unbounded.js'))
  const { passed, output } = await verifyQuietly(folder)
  t.same(passed, [true, false, true], output)
  const text = unwrapped(output)
  t.match(text, /✓ new passwords do not hold the event loop/, 'off the event loop, it passes that')
  t.match(text, /✗ the same credentials are not derived again\n[\s\S]*hint: crypto\.pbkdf2 took the key off the event loop, but every request still derives it, with no bound on how many run at once/)
})

t.test('a wrong fix: a cache of verdicts with no bound, keyed by the header', async (t) => {
  const folder = cryptoCopy(t, 'crypto-unbounded', path.join(FIXTURES, 'unbounded-cache.js'))
  const { passed, output } = await verifyQuietly(folder)
  t.same(passed, [true, true, false], output)
  const text = unwrapped(output)
  const [, growth] = /the heap after a collection went from [\d,]+ KiB to [\d,]+ KiB: \+([\d,]+) bytes a password/.exec(text) ?? []
  t.ok(Number(growth?.replaceAll(',', '')) >= 8192, `at least the 8 KiB each password sent (${growth})`)
  t.match(text, /✗ the heap does not grow with every new password\n[\s\S]*hint: your cache keeps what each client sends, with no bound/)
  t.match(text, /✓ keys compared in constant time/)
})

t.test("a wrong fix: the story's fixed server comparing keys with equals", async (t) => {
  const folder = cryptoCopy(t, 'crypto-equals', path.join(FIXTURES, 'plain-compare.js'))
  const { passed, output } = await verifyQuietly(folder)
  t.same(passed, [true, true, false], output)
  const text = unwrapped(output)
  t.match(text, /✓ the heap does not grow with every new password/)
  t.match(text, /✗ keys compared in constant time \(read from your source: timing cannot be measured here\)\n\s+sent: read account\.js, index\.js\n\s+seen: index\.js:\d+: else resolve\(user === account\.user && derived\.equals\(account\.key\)\)\n\s+hint: compare the derived key with crypto\.timingSafeEqual/)
})

t.test('verify --level for a crypto copy stops at its top level', async (t) => {
  const folder = cryptoCopy(t, 'crypto-level')
  const bad = spawnSync(process.execPath, ['workshop/verify.js', folder, '--level', '3'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(bad.status, 2)
  t.match(bad.stderr, /--level must be an integer from 0 to 2, got "3"/)
})

// A stand-in for the speed's servers (compareSpeed's measureSides): each round's CPU per request near a run of
// the story's servers (crypto-slow some forty times crypto-fixed), yours as `yours` µs, the machine moving all alike.
// Records the sides it was asked to start.
function storySpeed (yours, asked) {
  const micros = { yours, 'crypto-fixed': 120, 'crypto-slow': 4800 }
  let round = 0
  return async (sides) => {
    asked.push(sides)
    round++
    const machine = 1 + 0.1 * Math.sin(round * 1.7)
    return Object.fromEntries(sides.map(({ name }) => {
      const cpuMicrosPerRequest = micros[name] * machine * (1 + 0.02 * Math.sin(round * 2.3 + name.length))
      return [name, { cpuMicrosPerRequest, requestsPerSecond: 4e5 / cpuMicrosPerRequest }]
    }))
  }
}

t.test("the speed: yours beside the story's servers, loaded as they are, placed between them", async (t) => {
  const folder = cryptoCopy(t, 'crypto-speed', path.join(ROOT, 'stories', 'crypto', 'fixed.js'))
  const asked = []
  let output = ''
  const { code } = await verify(folder, { measureSides: storySpeed(118, asked), print: (text) => { output += text + '\n' } })
  t.equal(code, 0)
  const name = path.basename(folder)
  const sides = Object.fromEntries(asked[0].map((side) => [side.name, side]))
  t.same(Object.keys(sides).sort(), ['crypto-fixed', 'crypto-slow', 'yours'], 'the story\'s servers beside yours, nothing else')
  t.same(sides.yours.headers, sides['crypto-fixed'].headers, 'yours loaded with the credentials the story\'s servers are')
  t.match(sides.yours.headers, { authorization: /^Basic / })
  t.equal(sides.yours.env.SEED_PASSWORD, 'workshop', 'and started with the password verify checked it with')
  t.equal(sides.yours.entry, folder)
  const asParticipant = output.replaceAll(name, 'mine-crypto')
  t.match(asParticipant, /\nSpeed: mine-crypto, crypto-fixed and crypto-slow loaded at the same time, each in a fresh process, in 8 to 12 rounds\.\n {2}Each round: [^\n]*\n\n/, 'nothing measured by requests')
  t.match(asParticipant, /\nmine-crypto is about as fast as crypto-fixed\.\n {2}mine-crypto costs [\d.]+ times crypto-fixed's CPU per request \([\d.]+ to [\d.]+\)\.\n/, 'the verdict, then its figures')
  t.match(asParticipant, /\n {2}mine-crypto's CPU per request: [\d.]+ x crypto-slow's \([\d.]+ to [\d.]+\)\n +[\d.]+ x crypto-fixed's/)
  t.match(asParticipant, /\n {2}Between crypto-fixed \(0\) and crypto-slow \(1\): -?[\d.]+ /)
})

t.test('the speed of a copy that still derives on every request: about as fast as crypto-slow', async (t) => {
  const folder = cryptoCopy(t, 'crypto-speed-slow', path.join(FIXTURES, 'async-unbounded.js'))
  let output = ''
  const { code } = await verify(folder, { measureSides: storySpeed(4700, []), print: (text) => { output += text + '\n' } })
  t.equal(code, 1, 'level 1 fails')
  t.match(output.replaceAll(path.basename(folder), 'mine-crypto'), /\nmine-crypto is about as fast as crypto-slow\.\n/)
})

t.test("a short speed run for real: yours answered with the story's credentials, as its servers are", async (t) => {
  const folder = cryptoCopy(t, 'crypto-speed-real', path.join(ROOT, 'stories', 'crypto', 'fixed.js'))
  const protocol = { connections: 5, warmup: 0.3, duration: 0.5, rounds: 2, moreRounds: 0, maxRounds: 2 }
  const { runs } = await compareSpeed(folder, { protocol, sides: exerciseSides(exerciseNamed('crypto').speed), yours: { headers: exerciseNamed('crypto').speed.headers, env: exerciseNamed('crypto').env } })
  for (const run of runs) {
    t.ok(run.responses > 0 && run.status2xx === run.responses, `${run.target}, round ${run.round}: ${run.status2xx} of ${run.responses} answered 2xx`)
  }
})

t.test("each crypto level in verify's form: a title, help lines within 80 columns, its page and its sentences", async (t) => {
  const { LEVELS } = require('../../workshop/levels/crypto')
  const { command } = require('../../workshop/verify')
  t.same(LEVELS.map((level) => level.title), [
    'Contract: Basic credentials, then GET /seed/v1',
    'Level 1: the key derived once per credential, off the event loop',
    'Level 2: no lever for a client that sends new passwords'
  ])
  for (const level of LEVELS) {
    t.type(level.check, 'function')
    t.ok(level.usage.every((line) => 12 + line.length <= 80), `${level.title}: help lines within 80 columns`)
    t.ok(command.usage.includes(`${level.usage[0]}\n`), `${level.title}: in verify's help`)
    t.match(level.readme, /^docs\/stories\.md, "Story: crypto in a middleware"$/)
    t.ok([level.held, level.failing].every((line) => /^[A-Z].*\.$/.test(line) && line.length <= 100), `${level.title}: its sentences`)
  }
})

t.test('a copy that lets a request without credentials in: the contract fails, and no level is checked', async (t) => {
  const folder = cryptoCopy(t, 'crypto-open')
  const index = path.join(folder, 'index.js')
  const source = fs.readFileSync(index, 'utf8')
  const open = source.replace('if (!credentials) return next(unauthorized(res))', 'if (!credentials) return next()')
  t.not(open, source, 'the guard removed')
  fs.writeFileSync(index, open)
  const { code, passed, output } = await verifyQuietly(folder)
  t.equal(code, 1)
  t.same(passed, [false, null, null])
  t.match(unwrapped(output), /✗ no credentials: refused with a Basic challenge\n\s+sent: GET \/seed\/v1 with no Authorization header\n\s+seen: 200, WWW-Authenticate: \(none\)\n\s+hint: a request without the right credentials answers 401 with a Basic challenge/)
  t.match(output, /\nThe contract fails, so the levels were not checked\.\n/)
})
