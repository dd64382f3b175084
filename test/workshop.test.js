'use strict'

// The workshop's commands around verify's levels (verify.test.js): the speed
// comparison and its verdict, --watch, a bad --level, and workshop new.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { once } = require('node:events')
const { spawn, spawnSync } = require('node:child_process')
const { verify } = require('../workshop/verify')
const { newCopy } = require('../workshop')
const { speedVerdict, runNoise, compareSpeed } = require('../workshop/speed')
const { ROOT } = require('../tooling/repo')
const { skipOffNvmrcLine, skipWithoutSignals, readText, workshopCopy } = require('./helper')

// Four speed comparisons (one to read its output, three to judge a copy of
// the one-line fix) take a minute or more: more than tap's 30 s per file.
t.setTimeout(4 * 60 * 1000)

const GUARD = 'if (attachAfterEvent === true) return'

async function verifyOutput (entry, options) {
  let output = ''
  await verify(entry, { print: (text) => { output += text + '\n' }, ...options })
  return output
}

// A copy of slow/ with the one-line fix, removed in teardown.
const fixedCopy = (t, name) => workshopCopy(t, `workshop-test-${name}`, (source) => source.replace(GUARD, 'if (afterEventAttached === true) return'))

// A bench run (bench.test.js runs the bench on every Node line): checked on
// .nvmrc's line.
t.test('the speed comparison names the closest variant', { skip: skipOffNvmrcLine }, async (t) => {
  const tiny = { connections: 10, warmup: 0, duration: 0.5, warmupRequests: 20, requests: 10, rounds: 1 }
  const output = await verifyOutput('fixed', { speed: true, speedProtocol: tiny })
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
  // A run whose rounds of one server stray 70 % apart: the one-line fix at
  // 102 µs beside fast/ at 166 (a real run's medians) is not called different.
  t.equal(speedVerdict({ yours: 102, slow: 9000, fast: 166, fixed: 45 }), "between fixed/ and fast/: 2.3 times fixed/'s CPU per request", 'a quiet run: a difference')
  t.equal(speedVerdict({ yours: 102, slow: 9000, fast: 166, fixed: 45 }, { noise: 0.7 }), 'about as fast as fast/', 'inside the run\'s own spread: none')
  t.equal(speedVerdict({ yours: 26, slow: 9000, fast: 80, fixed: 20 }, { noise: 0.3 }), "about as fast as fixed/ (within this run's spread, 30 %)")
  t.equal(speedVerdict({ yours: 40, slow: 9000, fast: 60, fixed: 25 }, { noise: 0.6 }), 'about as fast as fast/', 'inside both bands: the nearer names it')
  t.equal(runNoise([{ target: 'yours', spread: { cpuMicrosPerRequest: 0.2 } }, { target: 'slow', spread: { cpuMicrosPerRequest: 0.9 } }, { target: 'fast', spread: { cpuMicrosPerRequest: 0.4 } }]), 0.4, 'slow\'s spread is not the run\'s')
})

// The one-line fix is fast/'s code: however noisy a run, the verdict must
// not call the two different. Three short runs (no warm-up, a second each,
// slow by 100 requests: noisier than verify's), each judged within its own
// spread. The servers run without tap's coverage, as a participant's do:
// V8's block coverage made fixed/ cost 153 µs a request beside fast/'s 265
// in one CI run, too close to tell apart ("about as fast as fixed/").
t.test('the one-line fix is "about as fast as fast/", run after run', { skip: skipOffNvmrcLine }, async (t) => {
  const copy = fixedCopy(t, 'as-fast')
  const coverage = process.env.NODE_V8_COVERAGE
  delete process.env.NODE_V8_COVERAGE
  t.teardown(() => { if (coverage !== undefined) process.env.NODE_V8_COVERAGE = coverage })
  const short = { connections: 100, warmup: 0, duration: 1, warmupRequests: 0, requests: 100, rounds: 2 }
  for (let run = 1; run <= 3; run++) {
    const { verdict, summaries } = await compareSpeed(copy, { protocol: short })
    const cpu = summaries.map((s) => `${s.target} ${Math.round(s.cpuMicrosPerRequest)} µs (spread ${Math.round((s.spread.cpuMicrosPerRequest ?? 0) * 100)} %)`).join(', ')
    t.equal(verdict, 'about as fast as fast/', `run ${run}: ${cpu}`)
  }
})

t.test('workshop new: a copy of slow/ that git ignores, ready to run', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'workshop-'))
  t.teardown(() => fs.rmSync(root, { recursive: true, force: true }))
  fs.cpSync(path.join(ROOT, 'slow'), path.join(root, 'slow'), { recursive: true })
  fs.mkdirSync(path.join(root, '.git'))
  const folder = newCopy('mine', { root })
  t.equal(folder, path.join(root, 'mine'))
  // The code as it is; the one comment that names the folder names the copy.
  const asSlowWouldSay = (text) => text.replaceAll('node mine', 'node slow').replaceAll("'./mine'", "'./slow'")
  for (const file of fs.readdirSync(path.join(ROOT, 'slow'))) {
    t.equal(asSlowWouldSay(readText(path.join(folder, file))), readText(path.join(ROOT, 'slow', file)), `${file} copied as it is`)
  }
  t.match(fs.readFileSync(path.join(folder, 'index.js'), 'utf8'), /^\/\/ `node mine` starts this server; require\('\.\/mine'\) builds it/m, 'its comment speaks of the copy')
  t.match(fs.readFileSync(path.join(folder, '.gitignore'), 'utf8'), /^\*$/m, 'the copy ignores itself')
  t.equal(fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8'), '/mine/\n', 'and the checkout lists it, for standard')
  t.throws(() => newCopy('mine', { root }), /mine\/ already exists/)
  t.throws(() => newCopy('../out', { root }), /the name must be letters, digits/)
})

t.test('verify --watch checks again when a file is saved, and stops on Ctrl-C', { skip: skipWithoutSignals }, async (t) => {
  const folder = fixedCopy(t, 'watched')
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

t.test('trace-leak and soak take a workshop copy where they took a variant', async (t) => {
  const { traceLeak, adderOf } = require('../diagnose/trace-leak')
  const { soak } = require('../soak')
  const leaking = newCopy(`workshop-test-leaking-${process.pid}`, { gitExclude: false })
  t.teardown(() => fs.rmSync(leaking, { recursive: true, force: true }))
  const traced = await traceLeak({ entry: leaking })
  t.same(adderOf(traced.warning), { functionName: 'attachAfterEvent', location: `${path.basename(leaking)}/etag.js:25:12` }, 'the copy\'s own line')

  const fixed = fixedCopy(t, 'soaked')
  const quiet = await traceLeak({ entry: fixed })
  t.equal(quiet.warning, null, 'no warning from the fixed copy')
  const report = await soak(fixed, { duration: 2, connections: 10 })
  t.equal(report.variant, path.basename(fixed), 'named as the user named it')
  for (const check of report.checks) t.ok(check.pass, `${check.name}: ${check.detail}`)
})
