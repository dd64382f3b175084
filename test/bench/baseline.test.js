'use strict'

// bench against a stored baseline (issue 40, items 2 and 5): an instruction
// baseline names where it was counted (Node, valgrind, C library, the CPU
// valgrind shows the code, the meter) and bench refuses, exit 3 in one
// line, to judge it anywhere else; a CPU baseline is a report, never an
// exit 1.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync } = require('node:child_process')
const { describeCountingMachine, cpuAsValgrindShowsIt, hostCpu } = require('../../bench/measure/meter-context')
const { describeMeter } = require('../../bench/measure/instructions')
const { checkMeter } = require('../../bench/measure/instruction-tools')
const { checkInstructionBaseline, CannotJudgeHere } = require('../../bench/judge/instructions')
const { MODES } = require('../../bench/judge/goals')
const { parseOptions } = require('../../bench/options')
const { describeMeter: describeMeterText } = require('../../bench/print/instructions')
const { ROOT } = require('../../tooling/repo')
const { bench, SHORT } = require('./bench-helper')

// A short bench of two targets in two rounds took 14 s here, quiet; beside
// other work (load average 10, 2 cores) tap's 30 s ran out.
t.setTimeout(120000)

// What glibc 2.36's loader printed under valgrind 3.19 on an AMD EPYC
// (`valgrind --tool=none ld.so --list-diagnostics`), cut to a few lines.
const DIAGNOSTICS = [
  'version.version="2.36"',
  'x86.cpu_features.basic.kind=0x1',
  'x86.cpu_features.basic.max_cpuid=0xd',
  'x86.cpu_features.basic.family=0x6',
  'x86.cpu_features.basic.model=0x3c',
  'x86.cpu_features.basic.stepping=0x3',
  'x86.cpu_features.features[0x0].cpuid[0x0]=0x306c3',
  'x86.cpu_features.features[0x0].cpuid[0x1]=0x2100800',
  'x86.cpu_features.features[0x0].cpuid[0x2]=0x7ffafbff',
  'x86.cpu_features.rep_movsb_threshold=0x2000',
  ''
].join('\n')

const HERE = {
  ...describeMeter('3.19.0', MODES.ci.protocol),
  node: 'v24.21.0',
  libc: 'glibc 2.36',
  cpu: { host: 'AuthenticAMD AMD EPYC', guest: 'Intel family 0x6 model 0x3c, features 0c19f95bc027' }
}

const refusal = (stored) => {
  try {
    checkInstructionBaseline(stored, HERE)
  } catch (err) {
    return err instanceof CannotJudgeHere ? err.message : `not CannotJudgeHere: ${err.message}`
  }
  return null
}

t.test('the CPU valgrind shows the code, as glibc\'s loader read it', async (t) => {
  const seen = cpuAsValgrindShowsIt(DIAGNOSTICS)
  t.match(seen, /^Intel family 0x6 model 0x3c, features [0-9a-f]{12}$/)
  t.not(cpuAsValgrindShowsIt(DIAGNOSTICS.replace('rep_movsb_threshold=0x2000', 'rep_movsb_threshold=0x800')), seen,
    'another threshold glibc derived from CPUID: another CPU as far as the count goes')
  t.equal(cpuAsValgrindShowsIt(DIAGNOSTICS.replace('cpuid[0x1]=0x2100800', 'cpuid[0x1]=0x9100800')), seen,
    'leaf 1\'s EBX (the core\'s APIC id) left out')
  t.equal(cpuAsValgrindShowsIt('version.version="2.31"\n'), null, 'no cpu_features lines: unknown')
  t.match(cpuAsValgrindShowsIt('aarch64.cpu_features.midr_el1=0x413fd0c1\n'), /^features [0-9a-f]{12}$/, 'elsewhere, the features alone')
  t.equal(hostCpu('processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n'), 'GenuineIntel Intel(R) Xeon(R) CPU @ 2.20GHz')
  t.equal(hostCpu(null), null)
})

t.test('where a count is made: the C library and both CPUs, read once', async (t) => {
  const report = { header: { glibcVersionRuntime: '2.39' }, sharedObjects: ['/usr/bin/node', '/lib64/ld-linux-x86-64.so.2'] }
  const ran = []
  const machine = describeCountingMachine({ report, cpuinfo: 'vendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\n', run: (loader) => { ran.push(loader); return DIAGNOSTICS } })
  t.same(ran, ['/lib64/ld-linux-x86-64.so.2'], 'the loader node itself was loaded by, run under valgrind')
  t.same(machine, { libc: 'glibc 2.39', cpu: { host: 'AuthenticAMD AMD EPYC', guest: cpuAsValgrindShowsIt(DIAGNOSTICS) } })
  const old = describeCountingMachine({ report, cpuinfo: null, run: () => { throw new Error('unrecognized option --list-diagnostics') } })
  t.same(old.cpu, { host: null, guest: null }, 'a glibc without --list-diagnostics: the guest unknown, not a failure')
  const musl = describeCountingMachine({ report: { header: {}, sharedObjects: ['/lib/ld-musl-x86_64.so.1'] }, cpuinfo: null, run: () => t.fail('not run without glibc') })
  t.same(musl, { libc: 'not glibc', cpu: { host: null, guest: null } })
})

t.test('a baseline counted anywhere else cannot be judged here, every difference named', async (t) => {
  t.same(checkInstructionBaseline(HERE, HERE), [], 'the same: judged, no note')
  t.equal(refusal({ ...HERE, valgrind: '3.22.0' }), 'it was counted with valgrind 3.22.0 (here 3.19.0)')
  t.equal(refusal({ ...HERE, libc: 'glibc 2.39' }), 'it was counted with C library glibc 2.39 (here glibc 2.36)')
  t.equal(refusal({ ...HERE, node: 'v24.20.0' }), 'it was counted with Node v24.20.0 (here v24.21.0)', 'another release of the same line too: a V8 patch moves the count')
  t.equal(refusal({ ...HERE, node: 'v22.23.3' }), 'it was counted with Node v22.23.3 (here v24.21.0)')
  t.equal(refusal({ ...HERE, cpu: { host: 'GenuineIntel Intel(R) Xeon(R)', guest: 'Intel family 0x6 model 0x3c, features 5e1a0c0ffee0' } }),
    'it was counted with valgrind showing the code a CPU Intel family 0x6 model 0x3c, features 5e1a0c0ffee0 (here Intel family 0x6 model 0x3c, features 0c19f95bc027)')
  t.equal(refusal({ ...HERE, valgrind: '3.22.0', libc: 'glibc 2.39' }), 'it was counted with valgrind 3.22.0 (here 3.19.0), C library glibc 2.39 (here glibc 2.36)', 'both, in one sentence')
  t.match(refusal({ ...HERE, v8Flags: ['--predictable'] }), /^it was counted with V8 flags "--predictable" \(here "--predictable --predictable-gc-schedule/)
  t.equal(refusal({ ...HERE, notCounted: HERE.notCounted.slice(1) }), 'it was counted with other functions left out of the count')
  t.equal(refusal({ ...HERE, protocol: { ...HERE.protocol, windows: 3 } }), 'it was counted with a protocol of windows 3 (here 5)')
  const { libc, cpu, ...before } = HERE
  t.equal(refusal(before), 'it was counted with C library not recorded (here glibc 2.36), valgrind showing the code a CPU not recorded (here Intel family 0x6 model 0x3c, features 0c19f95bc027)',
    'a baseline from before they were recorded says nothing of where it was counted')
  // What does not change the count: the host behind the same CPU as valgrind shows it.
  t.same(checkInstructionBaseline({ ...HERE, cpu: { ...HERE.cpu, host: 'GenuineIntel Intel(R) Xeon(R)' } }, HERE),
    ['the baseline was counted on GenuineIntel Intel(R) Xeon(R), this is AuthenticAMD AMD EPYC: valgrind showed both the same CPU'])
  const unknown = { ...HERE, cpu: { host: 'AuthenticAMD AMD EPYC', guest: null } }
  t.same(checkInstructionBaseline(unknown, unknown), [], 'neither side could read the guest: the hosts stand in')
  t.throws(() => checkInstructionBaseline({ ...unknown, cpu: { host: 'GenuineIntel Xeon', guest: null } }, unknown),
    new CannotJudgeHere('it was counted with a CPU GenuineIntel Xeon (here AuthenticAMD AMD EPYC)'), 'and another host is refused')
})

t.test('the usage says what --baseline does on each meter, and exit 3', async (t) => {
  const help = spawnSync(process.execPath, ['bench', '--help'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(help.status, 0)
  t.match(help.stdout, /--baseline FILE {7}an earlier --json result\. On CPU time, a report, not a\s+gate/)
  t.match(help.stdout, /3 an instruction\s+baseline that cannot be judged here/)
})

t.test('the meter\'s description names where it counted', async (t) => {
  const [line] = describeMeterText(HERE)
  t.match(line, /callgrind \(valgrind 3\.19\.0\), Node v24\.21\.0, glibc 2\.36, CPU as valgrind shows it: Intel family 0x6 model 0x3c, features 0c19f95bc027 \(host AuthenticAMD AMD EPYC\), V8/)
})

let meterHere = null
try {
  meterHere = checkMeter()
} catch (err) {
  meterHere = err.message
}

t.test('bench:ci on a baseline edited to name another valgrind: one line, exit 3, nothing run', { skip: typeof meterHere === 'string' ? meterHere : false }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-baseline-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const stored = JSON.parse(fs.readFileSync(path.join(ROOT, '.ci/instructions-baseline.json'), 'utf8'))
  const file = path.join(dir, 'baseline.json')
  // Short, in its own process group, stopped in teardown: were the
  // baseline taken, fixed would be counted under valgrind.
  const args = ['--mode', 'ci', '--meter', 'instructions', '--targets', 'fixed', ...SHORT, '--no-html', '--baseline', file]
  // Counted here, by this run's meter, in every way but valgrind's version.
  stored.instructions.meter = { ...describeMeter(meterHere.valgrind, parseOptions(args).protocol), ...describeCountingMachine(), valgrind: '3.22.0' }
  fs.writeFileSync(file, JSON.stringify(stored))
  const run = await runBench(t, args)
  t.equal(run.status, 3, 'exit 3: neither a regression (1) nor bad options (2)')
  t.equal(run.stdout, '', 'nothing measured')
  t.equal(run.stderr, `bench: cannot judge against ${file}: it was counted with valgrind 3.22.0 (here ${meterHere.valgrind}); ` +
    'count a baseline here (npm run bench:ci -- --meter instructions --json FILE) or use bench:compare, which counts its base beside the change\n', 'one line, saying why and what to do')
})

// `node bench ...args` as a process: resolves to { status, stdout, stderr }.
function runBench (t, args) {
  const child = spawn(process.execPath, ['bench', ...args], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGTERM')
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => { stdout += chunk })
  child.stderr.on('data', (chunk) => { stderr += chunk })
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

t.test('bench:ci on a CPU baseline it is far worse than: reported, exit 0', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-baseline-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  // A baseline whose fixed cost a tenth of node-http's: any run is worse.
  const file = path.join(dir, 'baseline.json')
  fs.writeFileSync(file, JSON.stringify({ ratios: [{ name: 'cpu fixed/node-http', pairs: [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1] }] }))
  const { code, stdout, stderr } = await bench(['--mode', 'ci', '--targets', 'fixed,node-http', ...SHORT, '--rounds', '2', '--no-html', '--baseline', file])
  t.equal(code, 0, `not a gate: ${stderr}`)
  t.match(stdout, /Against the baseline, a report, not a gate: .*npm run bench:compare.*--meter instructions --baseline FILE/)
  t.match(stdout, /^ {2}- cpu fixed\/node-http (went from the baseline's 0\.100 to .*: worse than the baseline|cannot be compared: .*)$/m)
  t.match(stdout, /Every check holds\.$/m, 'no goal divides these targets, and nothing failed')
})
