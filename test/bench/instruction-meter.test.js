'use strict'

// The instruction meter (docs/instructions.md, "The instruction meter"): how it
// reads callgrind's answer, which windows it keeps, the verdict of both
// instruction gates on made-up windows, which stored baselines it takes,
// the options it refuses, and exit 2 where there is no valgrind. A real
// count runs in instruction-meter-run.test.js (valgrind is slow, and a
// count moves with the Node line: it runs on the main line only).

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { describeMeter, groupByServer } = require('../../bench/measure/instructions')
const { TARGETS } = require('../../bench/protocol/targets')
const { checkWindow } = require('../../bench/measure/instruction-count')
const { countFromDump } = require('../../bench/measure/callgrind')
const { checkMeter, MeterUnavailable } = require('../../bench/measure/instruction-tools')
const { judgeInstructions, checkInstructionBaseline } = require('../../bench/judge/instructions')
const { parseOptions: parseCompareOptions } = require('../../bench/compare')
const { parseOptions: parseBenchOptions } = require('../../bench/options')
const { ROOT } = require('../../tooling/repo')

// A profile as callgrind dumps it (its format, cut to a few functions):
// names compressed after their first use, a call's object the caller's
// unless cob= says otherwise.
const DUMP = `# callgrind format
version: 1
creator: callgrind-3.19.0
positions: line
events: Ir
summary: 10000

ob=(1) /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30
fl=(1) ???
fn=(1) operator new(unsigned long)
0 40
cob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6
cfi=(2) ./malloc/./malloc/malloc.c
cfn=(2) malloc
calls=3 0
0 300
0 2

ob=(3) /work/node/bin/node
fl=(3) ???
fn=(3) uv__hrtime
0 10
cob=(4) /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
cfn=(4) clock_gettime
calls=2 0
0 800
cfn=(5) free
calls=1 0
0 7

ob=(4)
fn=(4)
0 700
cob=(2)
cfn=(2)
calls=1 0
0 100

ob=(2)
fn=(6) memcpy
0 90
cob=(2)
cfn=(7) free
calls=1 0
0 20
`

t.test('a window\'s count leaves out the allocator\'s and the fake clock\'s calls, from the profile', async (t) => {
  const { instructions, leftOut } = countFromDump(DUMP)
  // 300 in malloc from operator new, 20 in free from memcpy; the malloc
  // inside the fake clock is in its 800 already; the node binary's own
  // "free" is not the C library's.
  t.same(leftOut, { allocator: 320, clock: 800 })
  t.equal(instructions, 10000 - 320 - 800)
  t.throws(() => countFromDump('events: Ir\n'), /no summary/)
})

t.test('targets that are one server started alike share a process; a taxed one does not', async (t) => {
  const entries = (groups) => groups.map(({ entry, targets }) => `${entry}: ${targets.join(' ')}`)
  t.same(entries(groupByServer(['fast', 'fixed', 'fixed-304'], TARGETS)), ['fast: fast', 'fixed: fixed fixed-304'])
  t.same(entries(groupByServer(['fixed', 'fixed-304'], TARGETS, { fixed: 140 })), ['fixed: fixed', 'fixed: fixed-304'], 'the tax is the process\'s')
  t.same(entries(groupByServer(['slow', 'fixed'], TARGETS)), ['slow: slow', 'fixed: fixed'])
})

t.test('a window counts only if every response was the representation promised', async (t) => {
  const seen = (statuses, etags) => ({ statuses: new Set(statuses), etags: new Set(etags) })
  const a = { representation: '"a"' }
  t.ok(checkWindow(seen([200], ['"a"']), { conditional: false, ...a }))
  t.ok(checkWindow(seen([304], ['"a"']), { conditional: true, ...a }))
  t.notOk(checkWindow(seen([200, 304], ['"a"']), { conditional: true, ...a }), 'fixed\'s minute turned: a 200 among the 304s')
  t.notOk(checkWindow(seen([200], ['"a"', '"b"']), { conditional: false, ...a }), 'two representations in one window')
  t.notOk(checkWindow(seen([200], ['"b"']), { conditional: false, ...a }), 'a new one from the window\'s first request: its making counted in it')
  t.notOk(checkWindow(seen([503], [null]), { conditional: false, representation: null }), 'a server shedding load')
  t.ok(checkWindow(seen([200], [null]), { conditional: false, representation: null }), 'a server without ETags')
})

t.test('the verdict: the allowance and the windows\' own spread', async (t) => {
  const base = [93700, 93750, 93800, 93650, 93720]
  const shifted = (share, values = base) => values.map((v) => v * (1 + share))
  const judge = (head, options = {}) => judgeInstructions({ base: { fixed: base }, head: { fixed: head } }, { targets: ['fixed'], ...options }).comparisons[0]

  const onePercent = judge(shifted(0.01))
  t.equal(onePercent.verdict, 'REGRESSION')
  t.equal(onePercent.pWorse, 1 / 252, 'every head window above every base window: 1 split in C(10, 5)')
  t.ok(Math.abs(onePercent.change - 0.01) < 1e-9)

  t.match(judge(shifted(0.0005)).verdict, /^within ±0.1 %$/, 'separated, but under the allowance: processes of the same code differ that much')
  t.equal(judge(shifted(0.002)).verdict, 'REGRESSION', '+0.2 %, every window moved')
  t.equal(judge(shifted(-0.01)).verdict, 'cheaper')
  t.match(judge(base).verdict, /^within/)

  const scattered = judgeInstructions({ base: { fixed: [93650, 95400, 93700, 95500, 94800] }, head: { fixed: [94200, 95600, 94300, 95300, 94900] } }, { targets: ['fixed'] }).comparisons[0]
  t.ok(scattered.change > 0.005)
  t.equal(scattered.verdict, 'cannot tell', 'a change past the allowance the windows are too spread to confirm')

  // Windows measured in one process of fixed-304 (2026-11-24, bench:ci's
  // three counts): four of five raised by V8 redoing timer code, against
  // the stored baseline's windows.
  const storedBaseline = [89196, 88989, 89015, 89032, 88926]
  const disturbed = [89324, 88928, 89613, 90653, 89773]
  const against = (head) => judgeInstructions({ base: { 'fixed-304': storedBaseline }, head: { 'fixed-304': head } }, { targets: ['fixed-304'], alpha: 0.05 / 3 }).comparisons[0]
  const reading = against(disturbed)
  t.equal(reading.head, 88928, 'a side\'s count is its lowest window')
  t.match(reading.verdict, /^within/, 'windows raised by something that only adds do not make a regression')
  t.ok(reading.pWorse > 0.1, 'nor a significant change')
  t.equal(against(disturbed.map((v) => v * 1.01)).verdict, 'REGRESSION', 'the same windows 1 % costlier: every window moved, the lowest too')

  const three = ['fixed', 'fixed-304', 'fast']
  const all = Object.fromEntries(three.map((target) => [target, base]))
  const run = judgeInstructions({ base: all, head: { ...all, fast: shifted(0.02) } }, { targets: three, alpha: 0.05 })
  t.equal(run.alphaPerTarget, 0.05 / 3)
  t.equal(run.failures.length, 1)
  t.match(run.failures[0], /^fast: instructions per request \+2\.0 % .* p = 0\.0040 over 5 \+ 5 windows/)

  const two = judgeInstructions({ base: { fixed: [1, 2] }, head: { fixed: [3, 4] } }, { targets: ['fixed'] }).comparisons[0]
  t.equal(two.verdict, 'cannot tell', '2 + 2 windows: 1/6 is the smallest p-value')
})

t.test('a stored baseline is refused where its count is another quantity', async (t) => {
  const meter = { ...describeMeter('3.19.0', { warmupRequests: 200, requests: 100 }), node: 'v24.21.0', libc: 'glibc 2.36', cpu: { host: 'AuthenticAMD AMD EPYC', guest: 'Intel family 0x6 model 0x3c, features 0c19f95bc027' } }
  t.same(checkInstructionBaseline(meter, meter), [])
  t.throws(() => checkInstructionBaseline({ ...meter, node: 'v22.23.3' }, meter), /counted with Node v22\.23\.3 \(here v24\.21\.0\)/)
  t.throws(() => checkInstructionBaseline({ ...meter, v8Flags: ['--predictable'] }, meter), /V8 flags "--predictable"/)
  t.throws(() => checkInstructionBaseline({ ...meter, notCounted: meter.notCounted.slice(1) }, meter), /other functions left out of the count/)
  t.throws(() => checkInstructionBaseline({ ...meter, protocol: { ...meter.protocol, windows: 3 } }, meter), /a protocol of windows 3 \(here 5\)/)
  // Counted before the clock stood still: what the clock drives was in it.
  const { clock, ...runningClock } = meter
  t.match(clock, /^frozen at /)
  t.throws(() => checkInstructionBaseline(runningClock, meter), /a clock not recorded \(here frozen at 2026-01-01 00:00:00 \(libfaketime\)\)/)
  // Another release of the same line, another valgrind: refused too
  // (test/bench/baseline.test.js has every field).
  t.throws(() => checkInstructionBaseline({ ...meter, node: 'v24.20.0', valgrind: '3.22.0' }, meter), /Node v24\.20\.0 \(here v24\.21\.0\), valgrind 3\.22\.0 \(here 3\.19\.0\)/)
})

t.test('the options: --meter, --instruction-tax and their defaults', async (t) => {
  const compare = parseCompareOptions(['--meter', 'instructions'])
  t.equal(compare.meter.name, 'instructions')
  t.equal(compare.maxRegression, 0.001, 'the instruction allowance')
  t.equal(compare.protocol.rounds, 2, 'CPU rounds reported beside, fewer')
  t.same(parseCompareOptions(['--meter', 'instructions', '--instruction-tax', 'fixed=940']).instructionTax, { fixed: 940 })
  t.throws(() => parseCompareOptions(['--instruction-tax', 'fixed=940']), /needs --meter instructions/)
  t.throws(() => parseCompareOptions(['--meter', 'instructions', '--instruction-tax', 'fixed=1.5']), /whole number/)
  t.throws(() => parseCompareOptions(['--meter', 'cycles']), /--meter must be one of cpu, instructions/)

  const ci = parseBenchOptions(['--mode', 'ci', '--meter', 'instructions'])
  t.same(ci.instructionTargets, ['fast', 'fixed', 'fixed-304'], 'of the run\'s targets, the three the meter counts by default')
  t.equal(ci.alpha, 0.05)
  t.same(parseBenchOptions(['--mode', 'ci', '--meter', 'instructions', '--targets', 'slow,fixed']).instructionTargets, ['slow', 'fixed'], 'or those named')
  t.same(parseBenchOptions(['--mode', 'ci']).instructionTargets, [])
  t.equal(ci.maxRegression, 0.001, 'the allowance against a baseline, by default')
  t.equal(parseBenchOptions(['--mode', 'ci', '--meter', 'instructions', '--max-regression', '1']).maxRegression, 0.01)
})

t.test('without valgrind the meter says what it needs, and the command exits 2', async (t) => {
  const thrown = (fn) => { try { fn() } catch (err) { return err } }
  t.ok(thrown(() => checkMeter({ platform: 'darwin' })) instanceof MeterUnavailable, 'macOS: unavailable')
  t.throws(() => checkMeter({ platform: 'win32' }), /needs valgrind on Linux; this is win32/)
  // Yama's setting is read once valgrind is found: where it is.
  const valgrind = spawnSync('valgrind', ['--version']).status === 0
  t.test('a kernel that keeps vgdb from waking a process', { skip: process.platform === 'linux' && valgrind ? false : 'valgrind on Linux is not here' }, async (t) => {
    const scope = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ptrace-')), 'ptrace_scope')
    fs.writeFileSync(scope, '1\n')
    t.throws(() => checkMeter({ ptraceScopeFile: scope }), /kernel\.yama\.ptrace_scope is 1: run "sudo sysctl -w kernel\.yama\.ptrace_scope=0"/)
    fs.rmSync(path.dirname(scope), { recursive: true })
  })
  t.test('no libfaketime: the clock cannot be frozen, and the meter says how to get it', { skip: process.platform === 'linux' && valgrind ? false : 'valgrind on Linux is not here' }, async (t) => {
    t.throws(() => checkMeter({ libfaketimePaths: ['/nowhere/libfaketime.so.1'] }), /a clock that stands still, with libfaketime: install it \(apt-get install faketime\); looked for \/nowhere\/libfaketime\.so\.1/)
  })

  // On Linux, a PATH with node, git and getconf only; elsewhere the system
  // alone makes the meter unavailable.
  let env = process.env
  if (process.platform === 'linux') {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'no-valgrind-'))
    fs.symlinkSync(process.execPath, path.join(bin, 'node'))
    for (const command of ['git', 'getconf']) {
      const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim()
      if (found) fs.symlinkSync(found, path.join(bin, command))
    }
    t.teardown(() => fs.rmSync(bin, { recursive: true, force: true }))
    env = { ...process.env, PATH: bin }
  }
  for (const script of [['bench/compare', '--meter', 'instructions'], ['bench', '--mode', 'ci', '--meter', 'instructions']]) {
    const run = spawnSync(process.execPath, script, { cwd: ROOT, env, encoding: 'utf8' })
    t.equal(run.status, 2, `${script.join(' ')}: exit 2`)
    t.match(run.stderr, /needs (valgrind|the instruction meter)|valgrind on Linux/, run.stderr.trim().split('\n')[0])
  }
})
