'use strict'

// The case study's diagnosis, reproduced with real clinic runs under real
// load: `npm run test:clinic`. Slow, so kept out of `npm test`.
//
// Run with plain `node`, not the tap runner: the runner hooks every child
// process (it adds its module loader to NODE_OPTIONS of each spawn), and the
// servers clinic instruments do not survive that.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const os = require('node:os')
const { spawnSync, execFile, execFileSync } = require('node:child_process')
const { diagnose } = require('../../diagnose')
const { traceLeak } = require('../../diagnose/trace-leak')

const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { readmeOutput, unmatchedLine } = require('../readme-output')
const { oneLineFixCopy } = require('../workshop/copies')
const quiet = () => {}
t.setTimeout(10 * 60 * 1000) // ten clinic runs of about ten seconds each, and the clone's tests
// The findings are read from clinic's data; the HTML page is the CLI's
// (the clone's runs below check it), and writing it costs seconds a run.
const options = { log: quiet, html: false }
const { UNSEEN_LEAK } = require('./unseen-leak')
const { FIXED_CPU_CHECK_ALONE, FIXED_NOT_JUDGED, FIXED_ON_ONE_CORE } = require('./doctor-verdicts')

// A participant's clone as the workshop room has them: under a folder whose
// name has a space (~/Documents/Node Workshop/, or node itself under
// C:\Program Files), and with CRLF endings, as Git for Windows checks out
// where no .gitattributes says otherwise ($GIT_DIR/info/attributes
// overrides the repo's here). The clone is of HEAD; node_modules is linked.
const CLONE = (() => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-clinic-'))
  const clone = path.join(base, 'Node Workshop', 'seed')
  const git = (...args) => execFileSync('git', args, { cwd: clone, stdio: 'pipe' })
  fs.mkdirSync(path.dirname(clone), { recursive: true })
  execFileSync('git', ['-c', 'core.autocrlf=true', 'clone', '-q', ROOT, clone], { stdio: 'pipe' })
  fs.writeFileSync(path.join(clone, '.git', 'info', 'attributes'), '* text eol=crlf\n*.png binary\n')
  git('rm', '-q', '-r', '--cached', '.')
  git('reset', '-q', '--hard')
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'junction')
  t.teardown(() => fs.rmSync(base, { recursive: true, force: true }))
  return clone
})()

// `npm run <script> -- args` as the README has it, in the clone: node runs
// the script's file, as npm would.
function runInClone (file, args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(CLONE, file), ...args], { cwd: CLONE, timeout: 4 * 60 * 1000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code ?? 1 : 0, stdout, stderr })
    })
  })
}

t.test('the clone has CRLF endings and a space in its path', async (t) => {
  t.match(CLONE, / /)
  t.match(fs.readFileSync(path.join(CLONE, 'slow', 'etag.js'), 'utf8'), /\r\n/)
})

// What is stable in Doctor's verdict on slow, run after run, on every Node
// line: the event-loop delay is flagged, or, on a machine fast enough to run
// slow's 600 requests in turns under Doctor's 100 ms (an AMD EPYC, most
// runs), lines that say so plainly and name the command that sees the
// leak (at emulated speeds: speeds.test.js). Doctor's headline moves with
// the machine (docs/diagnose.md, "Doctor's verdict on slow"). The README's
// step 2 shows this output, held here by shape, the verdict and the
// headline as the CPU may swap them.
const FLAGGED = "Doctor flags slow's event-loop delay. The CPU's speed can change this verdict."
const DOCTOR_VARY = [
  [FLAGGED, 'Doctor detects an issue in slow, not in its event-loop delay.'],
  ['event-loop issue detected', 'gc issue detected', 'io issue detected', 'unknown issue detected']
]
t.test('doctor on slow, in the clone: the README\'s lines, the event-loop delay flagged', async (t) => {
  const { code, stdout, stderr } = await runInClone('diagnose/index.js', ['doctor', 'slow'])
  t.equal(code, 0, stderr)
  t.match(stdout, /\nLoad done: 600 2xx of 600 responses/, 'slow loaded by its count of requests')
  const flagged = stdout.split('\n').includes(FLAGGED)
  if (!flagged) t.match(stdout, UNSEEN_LEAK, 'where Doctor\'s rule does not see it, lines say so')
  t.equal(unmatchedLine(readmeOutput('2', 'npm run doctor'), stdout, { vary: DOCTOR_VARY }), null, `README step 2 shows this output by shape:\n${stdout}`)
  const report = /^Report: (.*)$/m.exec(stdout)?.[1]
  t.ok(report && fs.existsSync(path.join(CLONE, report)), `the HTML report exists: ${report}`)
})

t.test("flame on slow, in the clone: the ETag middleware's after listener on top, as the README shows", async (t) => {
  const { code, stdout, stderr } = await runInClone('diagnose/index.js', ['flame', 'slow'])
  t.equal(code, 0, stderr)
  const hottest = /Hottest frames by self time[^\n]*\n +([\d.]+) % {2}(\S+) {2}(\S+)/.exec(stdout)
  t.ok(hottest, 'the hottest frames are printed')
  const [, share, , location] = hottest
  const line = Number(location.split(':')[1])
  const source = readText(path.join(ROOT, 'slow', 'etag.js')).split('\n')[line - 1]
  t.match(source, /server\.on\('after'/, `the hottest frame is the after listener: ${location} ${source.trim()}`)
  t.ok(Number(share) > 30, `with a large share of the samples (${share} %)`)
  t.equal(unmatchedLine(readmeOutput('3', 'npm run flame'), stdout), null, `README step 3 shows this output by shape:\n${stdout}`)
  // With V8 and C++ frames shown, the listener's time is named: the SHA-512
  // of the body, in OpenSSL, within Node's binary. Named only with
  // diagnose/tick-processor-symbols.js: without it Node 26 showed one
  // "[SHARED_LIB] …/bin/node" row, and Node 24 nothing of it.
  const native = stdout.split('\nWith V8 and C++ frames shown:\n')[1]?.split('\n\n')[0] ?? ''
  t.match(native, /^ +[\d.]+ % {2}sha512_block_data_order\S* {2}\[cpp\]$/m, `OpenSSL's SHA-512 among the frames:\n${native}`)
  t.notMatch(native, /\[SHARED_LIB\] {2}\S*node(?:\.exe)?$/m, 'and no row of the node binary left unnamed')
})

t.test('trace-leak, in the clone: the README\'s lines', async (t) => {
  const { code, stdout, stderr } = await runInClone('diagnose/trace-leak.js', [])
  t.equal(code, 0, stderr)
  t.equal(unmatchedLine(readmeOutput('4', 'npm run trace-leak'), stdout), null, `README step 4 shows this output by shape:\n${stdout}`)
  t.equal(stdout.trim().split('\n').pop(), readmeOutput('4', 'npm run trace-leak').pop(), 'its last line, word for word')
})

// The tests that read the repo's own text as lines, run in the CRLF clone.
t.test('in the clone, the docs, slow/fast-diff and verify tests pass', async (t) => {
  const tapPackage = path.join(CLONE, 'node_modules', 'tap', 'package.json')
  const tap = path.join(path.dirname(tapPackage), JSON.parse(fs.readFileSync(tapPackage, 'utf8')).bin.tap)
  const run = await new Promise((resolve) => {
    execFile(process.execPath, [tap, '--disable-coverage', 'test/docs/docs.test.js', 'test/variants/slow-fast-diff.test.js', 'test/workshop/verify.test.js'],
      { cwd: CLONE, timeout: 4 * 60 * 1000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, TAP_REPORTER: 'terse' } },
      (err, stdout, stderr) => resolve({ code: err ? err.code ?? 1 : 0, output: stdout + stderr }))
  })
  t.equal(run.code, 0, run.output.slice(-3000))
})

// A load that gets no 2xx response: nothing to diagnose, and the run says so.
t.test('a load that gets no 2xx response fails the diagnosis', async (t) => {
  const result = await diagnose('doctor', path.join(__dirname, '..', 'diagnose', 'fixtures', 'answers-503.js'), { ...options, duration: 1 })
  t.equal(result.code, 1)
  t.match(result.error, /the load got no 2xx response from .*answers-503\.js \(\d+ responses, \d+ not 2xx/)
  t.match(result.error, /would have profiled an idle server/)
})

// On a machine where other processes took fixed's CPU (judged from what
// they used during the load: docs/diagnose.md, "Doctor on a busy machine"),
// the verdict says so and names no issue of fixed; otherwise it is "no
// issue", which Doctor's CPU check alone may follow with what it misread
// (a few samples off the core, or the load's turns, beside the load:
// "Doctor's CPU check on a busy server").
t.test('doctor on fixed reports no issue, or that the machine was too busy to judge', async (t) => {
  const result = await diagnose('doctor', 'fixed', options)
  t.equal(result.code, 0, result.error)
  t.equal(result.machine.measured, true, 'how busy the machine was is measured here')
  const figures = `${JSON.stringify(result.analysis.issues)}; ${JSON.stringify(result.machine)}`
  if (result.machine.busy && result.analysis.issueCategory !== 'none') {
    t.match(result.verdict, FIXED_NOT_JUDGED, figures)
  } else if (result.analysis.issueCategory === 'none') {
    t.equal(result.verdict, 'Doctor detects no issue in fixed.', figures)
  } else {
    t.match(result.verdict, FIXED_CPU_CHECK_ALONE, figures)
  }
})

// The same on one core, the server and its load sharing it: Doctor's CPU
// check flags fixed there every time (each waits on the other), and the
// verdict says so and names no issue. Linux's taskset sets the affinity.
t.test('doctor on fixed on one core: no issue, a server waiting on its load', { skip: hasTaskset() ? false : 'taskset is not on this machine' }, async (t) => {
  const script = `require(${JSON.stringify(path.join(ROOT, 'diagnose'))}).diagnose('doctor', 'fixed', { log () {}, html: false })` +
    '.then((r) => console.log(JSON.stringify({ code: r.code, error: r.error, verdict: r.verdict, issues: r.analysis?.issues, machine: r.machine })))'
  const result = JSON.parse(execFileSync('taskset', ['-c', '0', process.execPath, '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120 * 1000 }))
  t.equal(result.code, 0, result.error)
  const figures = `${JSON.stringify(result.issues)}; ${JSON.stringify(result.machine)}`
  t.ok(result.machine.serverCores < 0.75, `fixed shared its core: ${figures}`)
  t.match(result.verdict, FIXED_ON_ONE_CORE, figures)
})

function hasTaskset () {
  return spawnSync('taskset', ['-c', '0', 'true']).status === 0
}

t.test('flame on a workshop copy with the one-line fix: its own listener, by its own path', async (t) => {
  const copy = oneLineFixCopy(t, 'clinic-test-copy')
  const result = await diagnose('flame', copy, { ...options, duration: 2 })
  t.equal(result.code, 0, result.error)
  const ours = result.ownByTotal.map((frame) => `${frame.functionName} ${frame.location}`)
  t.ok(ours.some((frame) => frame.includes(` ${path.basename(copy)}/etag.js:`)), `the copy's etag.js among this repo's functions: ${ours.join(', ')}`)
})

// What docs/diagnose.md says of `npm run flame -- fixed` (its load: 5 s):
// the hottest frame is Node's, and this repo's code, all of it together,
// holds under 5 % of the samples (0.4 to 1.8 % in twenty runs; fast's
// listener alone 14 to 17 %). Not "none among the eight hottest": in a flat
// profile the eighth holds about 1 %, as much as fetchContent's callback
// with what V8 inlined into it, which was seventh once. And once, with a
// 2 s load, ifNoneMatchMatches stood at 8.4 %: samples of the server waiting
// in the profiler's own write(), which Flame's default view gave to the
// function it interrupted; they are left out of that view now
// (clinic-analysis.js, markProfilerOutput).
t.test('flame on fixed: the hottest frame is Node\'s, and this repo\'s code holds under 5 % of the samples', async (t) => {
  const result = await diagnose('flame', 'fixed', options)
  t.equal(result.code, 0, result.error)
  t.equal(result.frames.length, 8)
  t.match(result.frames[0], { location: /^node:/, own: false }, `the hottest frame is Node's: ${sharesOf(result.frames)}`)
  t.ok(result.ownShare < 0.05, `this repo's code, all of it: ${(result.ownShare * 100).toFixed(1)} % of the samples`)
  t.ok(result.profilerShare >= 0 && result.profilerShare < 1, `the profiler's output left out: ${(result.profilerShare * 100).toFixed(1)} %`)
})

// The stories (docs/stories.md): Flame on each slow
// server. The time itself is spent in Node (a write, a key derivation, a
// connect), so the check is twofold: the hottest frame is that work, and
// this repo's function with the most time on the stack is the one holding
// the story's line. Not for backend: Node opens a connection on the tick
// after http.get() asks for it, so no stack leads from our line to the
// connect; test/stories/backend.test.js counts the connections instead.
const STORIES = [
  // diagnose gives the logging story's server a synchronous file as its
  // stdout, as the bench does (under clinic it would be a pipe, where
  // console.log does not block, and the profile changes with the pipe's load).
  { server: 'stories/logging/slow.js', hottest: /^writeSync$/, line: /console\.log\(/, why: 'the synchronous write of each log line on top' },
  { server: 'stories/crypto/slow.js', hottest: /^pbkdf2Sync$/, line: /crypto\.pbkdf2Sync\(/, why: 'the key derivation on top' },
  // Opening connections and writing the responses come close (12-17 % and
  // 8-11 % of samples on an Intel Xeon, 8.5-11.8 % and 7.5-8.4 % on an AMD
  // EPYC, where each write costs more): on CI the writes came first once.
  // A share of samples moves with the CPU, so what holds the claim beside
  // the rank is the contrast: in the story's fixed, whose pool keeps its
  // connections, internalConnect is not among the hottest at all.
  { server: 'stories/backend/slow.js', hottest: /^internalConnect$/, among: 2, goneIn: 'stories/backend/fixed.js', line: null, why: 'a TCP connection opened per request among the two hottest, gone with the pool' }
]
for (const story of STORIES) {
  t.test(`flame on ${story.server}: ${story.why}${story.line ? ', and the story\'s line leading to it' : ''}`, async (t) => {
    const result = await diagnose('flame', story.server, { ...options, duration: 2 })
    t.equal(result.code, 0, result.error)
    const hottest = result.frames.slice(0, story.among ?? 1)
    const found = hottest.find((frame) => story.hottest.test(frame.functionName))
    const seen = sharesOf(hottest)
    t.ok(found, `the story's work is ${hottest.length === 1 ? 'the hottest frame' : `among the ${hottest.length} hottest frames`}: ${seen}`)
    if (story.goneIn) {
      const fixed = await diagnose('flame', story.goneIn, { ...options, duration: 2 })
      t.equal(fixed.code, 0, fixed.error)
      t.notOk(fixed.frames.some((frame) => story.hottest.test(frame.functionName)), `and not among the ${fixed.frames.length} hottest of ${story.goneIn}: ${sharesOf(fixed.frames)}`)
    }
    if (!story.line) return
    const [ours] = result.ownByTotal
    const [file, line] = ours.location.split(':')
    t.equal(file, story.server, `this repo's busiest function is in the story's server: ${ours.functionName} ${ours.location}`)
    const body = functionAt(readText(path.join(ROOT, file)), Number(line))
    t.match(body, story.line, `and it holds the story's line:\n${body}`)
  })
}

// Frames as an assertion's message shows them: "name 9.4 %, ...".
function sharesOf (frames) {
  return frames.map((frame) => `${frame.functionName} ${(frame.share * 100).toFixed(1)} %`).join(', ')
}

// The source of the function Flame places at `line` (where it starts): that
// line down to the first that closes it at the same indentation.
function functionAt (source, line) {
  const lines = source.split('\n').slice(line - 1)
  const indent = /^ */.exec(lines[0])[0]
  const end = lines.findIndex((text, i) => i > 0 && text.startsWith(`${indent}}`))
  return lines.slice(0, end + 1).join('\n')
}

t.test('trace-leak shows the warning with the function that adds the listener', async (t) => {
  const { removed, warning } = await traceLeak()
  t.equal(removed, "require('node:events').defaultMaxListeners = Infinity")
  t.match(warning, /MaxListenersExceededWarning: Possible EventEmitter memory leak detected\. 11 after listeners added to \[Server\]/)
  t.match(warning, /\n\s+at attachAfterEvent \(slow\/etag\.js:\d+:\d+\)/, 'the frame in the copy by the original\'s path')
})

t.test('bad arguments and a missing clinic get a clear message and a non-zero exit', async (t) => {
  const bad = spawnSync(process.execPath, ['diagnose', 'doctor', 'slowest'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(bad.status, 2)
  t.match(bad.stderr, /no file or folder at .*slowest: give a variant \(slow, fast, fixed\), a story's server, or the path of your own server/)
  const badTool = spawnSync(process.execPath, ['diagnose', 'xray', 'slow'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(badTool.status, 2)
  t.match(badTool.stderr, /unknown tool "xray"/)
  const missing = await diagnose('doctor', 'slow', { ...options, clinicBin: null })
  t.equal(missing.code, 2)
  t.match(missing.error, /^clinic is not installed \(an install with --omit=optional leaves it out\): `npm ci` adds it;/)
})
