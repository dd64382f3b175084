'use strict'

// `npm run verify`, the workshop's check of a participant's fix, on the
// three variants and on the wrong fixes people write. Each must pass or
// fail exactly the levels it should, and say why in the line that fails.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { once } = require('node:events')
const { spawn, spawnSync } = require('node:child_process')
const { verify } = require('../workshop/verify')
const { newCopy } = require('../workshop')
const { speedVerdict } = require('../workshop/speed')
const { ROOT } = require('../tooling/repo')

// Runs verify on `entry` without the speed comparison; resolves to
// { passed: [contract, level 1, level 2, level 3], output }.
async function verifyLevels (entry, options = {}) {
  let output = ''
  const { code, passed } = await verify(entry, { speed: false, print: (text) => { output += text + '\n' }, ...options })
  return { code, passed, output }
}

// A copy of slow/ in the repo's root (where its requires resolve), changed
// by `edit(source of etag.js)`, removed in teardown.
function wrongFix (t, name, edit) {
  const folder = newCopy(`verify-test-${name}-${process.pid}`, { gitExclude: false })
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }))
  const file = path.join(folder, 'etag.js')
  const source = fs.readFileSync(file, 'utf8')
  const changed = edit(source)
  t.not(changed, source, `the wrong fix "${name}" changed etag.js`)
  fs.writeFileSync(file, changed)
  return folder
}

const GUARD = 'if (attachAfterEvent === true) return'

t.test('slow: the contract holds; the leak, the ETag and 304 do not', async (t) => {
  const { code, passed, output } = await verifyLevels('slow', { level: 1 })
  t.equal(code, 1)
  t.same(passed, [true, false, false, false])
  t.match(output, /✗ 'after' listeners: at most one[^\n]*\n\s+sent: 500 GET \/seed\/v1, 10 at a time\n\s+seen: 101 after 100 requests, 501 after 500, [^\n]*: 400 more in 400 requests, one per request/)
  t.match(output, /✗ CPU per request stays flat as requests accumulate\n[^\n]*\n\s+seen: [\d,.]+ µs then [\d,.]+ µs per request \(x\d/)
  t.match(output, /hint: one more listener per request: the guard in etag.js decides whether one is added/)
})

t.test('fast: level 1 holds; the ETag lags one response behind its body', async (t) => {
  const { code, passed, output } = await verifyLevels('fast', { level: 1 })
  t.equal(code, 0, 'level 1 asked for, level 1 holds')
  t.same(passed, [true, true, false, false])
  t.match(output, /✓ 'after' listeners: at most one[^\n]*: 1 after 100 requests, 1 after 500, up to 1 while 10 were in flight/)
  t.match(output, /seen: response 4 brought new bytes with the tag the old bytes had \([0-9a-f]{16}…\), response 5 the same bytes with [0-9a-f]{16}…: the ETag lags one response behind its body/)
  t.match(output, /✗ the ETag is an entity-tag: "opaque" or W\/"opaque"/)
  t.equal((await verifyLevels('fast')).code, 1, 'all levels asked for: exit 1')
  const shown = /^contract ✓ .*$/m.exec(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'))
  t.ok(shown && output.includes(`\n${shown[0]}\n`), `the README's summary line for the one-line fix is verify's: ${shown?.[0]}`)
})

t.test('fixed: every level holds', async (t) => {
  const { code, passed, output } = await verifyLevels('fixed')
  t.equal(code, 0, output)
  t.same(passed, [true, true, true, true])
  t.match(output, /contract ✓ {3}level 1 ✓ {3}level 2 ✓ {3}level 3 ✓/)
  t.notMatch(output, /✗/)
})

t.test('a wrong fix: the listener removed, so no ETag is ever sent', async (t) => {
  const folder = wrongFix(t, 'no-listener', (source) => source.replace(/^ {4}attachAfterEvent\(this\)\n/m, ''))
  const { passed, output } = await verifyLevels(folder)
  t.same(passed, [true, true, false, false])
  t.match(output, /✗ every 200 carries an ETag, from the first response on\n[^\n]*\n\s+seen: no ETag on response 1, 2, 3, 4, 5, 6/)
  t.match(output, /Next: Level 2: the ETag belongs to the body it comes with/)
})

t.test('a wrong fix: server.once with the guard as it was, one listener per request in flight', async (t) => {
  const folder = wrongFix(t, 'once', (source) => source.replace("server.on('after'", "server.once('after'"))
  const { passed, output } = await verifyLevels(folder, { level: 1 })
  t.same(passed.slice(0, 2), [true, false], 'level 1 fails, though nothing grows over time')
  const [, early, late, inFlight] = /seen: (\d+) after 100 requests, (\d+) after 500, up to (\d+) while 10 were in flight/.exec(output) ?? []
  t.equal(early, late, `the count does not grow (${early}, ${late})`)
  t.ok(Number(inFlight) >= 2, `but up to ${inFlight} listeners at once`)
  t.match(output, /hint: a listener per request in flight \(server\.once removes it again/)
  t.match(output, /✓ CPU per request stays flat/, 'its CPU per request does not grow: only the listener count shows it')
})

t.test('a wrong fix: the guard fixed, the previous body\'s hash sent quoted', async (t) => {
  const folder = wrongFix(t, 'quoted-lag', (source) => source
    .replace(GUARD, 'if (afterEventAttached === true) return')
    .replace("res.set('Etag', cache[key])", "res.set('Etag', '\"' + cache[key] + '\"')"))
  const { passed, output } = await verifyLevels(folder)
  t.same(passed, [true, true, false, false])
  t.match(output, /✓ the ETag is an entity-tag: "opaque" or W\/"opaque", quotes included: "[0-9a-f]{16}…"/)
  t.match(output, /the ETag lags one response behind its body/)
})

t.test('the speed comparison names the closest variant', async (t) => {
  const tiny = { connections: 10, warmup: 0, duration: 0.5, warmupRequests: 20, requests: 10, rounds: 1 }
  const { output } = await verifyLevels('fixed', { speed: true, speedProtocol: tiny })
  t.match(output, /\nSpeed: fixed beside slow, fast and fixed/)
  for (const target of ['fixed \\(yours\\)', 'slow', 'fast', 'fixed']) {
    t.match(output, new RegExp(`\\n  ${target} +[\\d,.]+ req/s +[\\d,.]+ µs CPU per request`), target)
  }
  t.match(output, /\n {2}CPU per request: [\d.]+ x fast\/'s, [\d.]+ x fixed\/'s, [\d.]+ x slow\/'s\nfixed: /)

  t.equal(speedVerdict({ yours: 21, slow: 9000, fast: 80, fixed: 20 }), 'within 10 % of fixed/')
  t.equal(speedVerdict({ yours: 15, slow: 9000, fast: 80, fixed: 20 }), 'faster than fixed/: 25 % less CPU per request')
  t.equal(speedVerdict({ yours: 90, slow: 9000, fast: 80, fixed: 20 }), 'about as fast as fast/')
  t.equal(speedVerdict({ yours: 40, slow: 9000, fast: 80, fixed: 20 }), "between fixed/ and fast/: 2.0 times fixed/'s CPU per request")
  t.equal(speedVerdict({ yours: 8000, slow: 9000, fast: 80, fixed: 20 }), "about as slow as slow/: 100 times fast/'s CPU per request")
  t.equal(speedVerdict({ yours: 400, slow: 9000, fast: 80, fixed: 20 }), 'slower than fast/: 5.0 times its CPU per request')
})

t.test('a server that does not start: the contract fails with its error', async (t) => {
  const folder = wrongFix(t, 'syntax', (source) => source.replace(GUARD, 'if (afterEventAttached === true) return }'))
  const { code, passed, output } = await verifyLevels(folder)
  t.equal(code, 1)
  t.same(passed, [false, false, false, false])
  t.match(output, /✗ verify-test-syntax-\d+ starts and listens on PORT\n\s+seen: .*exited \(code 1\) before listening:[\s\S]*SyntaxError/)
})

t.test('workshop new: a copy of slow/ that git ignores, ready to run', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'workshop-'))
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }))
  fs.cpSync(path.join(ROOT, 'slow'), path.join(root, 'slow'), { recursive: true })
  fs.mkdirSync(path.join(root, '.git'))
  const folder = newCopy('mine', { root })
  t.equal(folder, path.join(root, 'mine'))
  for (const file of fs.readdirSync(path.join(ROOT, 'slow'))) {
    t.equal(fs.readFileSync(path.join(folder, file), 'utf8'), fs.readFileSync(path.join(ROOT, 'slow', file), 'utf8'), `${file} copied as it is`)
  }
  t.match(fs.readFileSync(path.join(folder, '.gitignore'), 'utf8'), /^\*$/m, 'the copy ignores itself')
  t.equal(fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8'), '/mine/\n', 'and the checkout lists it, for standard')
  t.throws(() => newCopy('mine', { root }), /mine\/ already exists/)
  t.throws(() => newCopy('../out', { root }), /the name must be letters, digits/)
})

t.test('verify --watch checks again when a file is saved, and stops on Ctrl-C', async (t) => {
  const folder = wrongFix(t, 'watched', (source) => source.replace(GUARD, 'if (afterEventAttached === true) return'))
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
  await until(/--- etag\.js changed: checking again ---[\s\S]*contract ✓ {3}level 1 ✓[\s\S]*Watching/)
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
