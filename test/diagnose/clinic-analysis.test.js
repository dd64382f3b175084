'use strict'

// Reading Doctor's findings (diagnose/clinic-analysis.js) from the data
// folder recorded on slow and committed (test/diagnose/fixtures/clinic/, made by
// record.js there): seconds here, where test:clinic takes minutes, so an
// upgrade of clinic that changes its data or its analysis shows up in
// npm test. Flame's: flame-analysis.test.js.

const t = require('tap')
const path = require('node:path')
const { skipWithoutClinic } = require('../skips')
// Without clinic (an install with --omit=optional), nothing here can run.
const analysis = skipWithoutClinic ? null : require('../../diagnose/clinic-analysis')
const { FIXED_CPU_CHECK_ALONE, FIXED_NOT_JUDGED, FIXED_ON_ONE_CORE } = require('../clinic/doctor-verdicts')

const FIXTURES = path.join(__dirname, 'fixtures', 'clinic')
const DOCTOR_DATA = path.join(FIXTURES, 'slow.clinic-doctor')

t.test("Doctor's verdict on slow: the event-loop delay, nothing else", { skip: skipWithoutClinic }, async (t) => {
  const result = await analysis.readDoctorAnalysis(DOCTOR_DATA)
  t.equal(result.issues.delay, 'performance', 'delay flagged')
  t.equal(result.issues.cpu, 'none')
  t.equal(result.issues.handles, 'none')
  t.ok(['event-loop', 'gc'].includes(result.issueCategory), `headline ${result.issueCategory}`)
  t.match(analysis.describeDoctorVerdict('slow', result), /^Doctor flags slow's event-loop delay\. The CPU's speed can change this verdict\.\n {2}Doctor's headline: (event-loop|gc) issue detected(\n|$)/)
})

t.test('the verdict sentence names what was flagged', { skip: skipWithoutClinic }, async (t) => {
  t.equal(analysis.describeDoctorVerdict('fixed', { issueCategory: 'none', issues: {} }), 'Doctor detects no issue in fixed.')
  const issues = { delay: 'performance', cpu: 'none', memory: { external: 'none', heapTotal: 'performance' } }
  const FLAGS_X = "Doctor flags x's event-loop delay. The CPU's speed can change this verdict."
  t.equal(analysis.describeDoctorVerdict('x', { issueCategory: 'gc', issues }), `${FLAGS_X}\n  Doctor's headline: gc issue detected\n  also flagged: memory heapTotal`)
  t.equal(analysis.describeDoctorVerdict('x', { issueCategory: 'event-loop', issues: { delay: 'performance', memory: {} } }), `${FLAGS_X}\n  Doctor's headline: event-loop issue detected`)
  t.equal(analysis.describeDoctorVerdict('x', { issueCategory: 'io', issues: { cpu: 'performance', handles: 'performance', memory: {} } }),
    "Doctor detects an issue in x, not in its event-loop delay.\n  Doctor's headline: io issue detected\n  flagged: cpu, handles", 'without the delay, the headline first')
})

// Doctor on a busy machine (docs/diagnose.md, "Doctor on a busy machine"):
// figures as clinic-run.js's cpuDuring and Doctor's samples give them. Five
// seconds of load on two cores; `serverCpu` the share of a core the server
// got in each sample, `delay` each sample's event-loop delay (a sample every
// 10 ms plus its delay), `spike` one delay in the middle.
// `stolenShare`: the share of all CPU time a virtual machine's host held back
// (tooling/cpu-times.js), part of `busyShare`.
function load ({ cores = 2, busyShare, loadCores = 0.3, stolenShare = 0 }) {
  const allMs = cores * 5000
  return { from: 1000, to: 6000, cores, allMs, busyMs: busyShare * allMs, stolenMs: stolenShare * allMs, loadMs: loadCores * 5000 }
}
function samples ({ serverCpu, delay, spike = delay }) {
  const list = []
  let spiked = false
  for (let timestamp = 1000; timestamp <= 6000;) {
    const late = !spiked && timestamp >= 3500 ? spike : delay
    spiked ||= late === spike
    timestamp += 10 + late
    list.push({ timestamp, delay: late, cpu: serverCpu })
  }
  return list
}
const IO_ON_FIXED = { issueCategory: 'io', issues: { delay: 'none', cpu: 'performance', handles: 'none', memory: {} } }
const UNKNOWN_ON_FIXED = { issueCategory: 'unknown', issues: { delay: 'performance', cpu: 'performance', memory: {} } }
// Doctor's verdict on IO_ON_FIXED, where it stands.
const IO_ISSUE = "Doctor detects an issue in fixed, not in its event-loop delay.\n  Doctor's headline: io issue detected\n  flagged: cpu"

t.test('beside a CPU hog, Doctor on fixed is not judged: the machine was busy', { skip: skipWithoutClinic }, async (t) => {
  // What fixed looked like beside `npm run cpu-hog -- --processes 2`: the
  // machine all busy, fixed on 0.45 of a core, waiting a few ms for the CPU
  // now and then, once 150 ms.
  const machine = analysis.judgeMachine(load({ busyShare: 0.99 }), samples({ serverCpu: 0.44, delay: 4, spike: 150 }))
  t.match(machine, { measured: true, busy: true, delayBeyondMachine: false })
  t.equal(Math.round(machine.othersShare * 100), 62, 'others: 99 % busy less fixed (0.44 of a core) and the load (0.3), of 2 cores')
  for (const analysed of [IO_ON_FIXED, UNKNOWN_ON_FIXED]) {
    const verdict = analysis.describeDoctorVerdict('fixed', analysed, machine)
    t.match(verdict, /^Doctor did not judge fixed: the machine was busy\. Run it again on a quieter machine\.\n {2}other processes used 62 % of the CPU during the load\n {2}fixed got 0\.44 of a core\n/, verdict)
    t.notMatch(verdict.split("\n  Doctor's headline")[0], /issue|event-loop|delay/, 'nothing of fixed is named an issue before Doctor\'s own headline')
  }
  t.equal(analysis.describeDoctorVerdict('fixed', { issueCategory: 'none', issues: {} }, machine), 'Doctor detects no issue in fixed.', 'nothing flagged is no issue, busy or not')
  // A run beside the hog, load average 17: fixed on 0.32 of a core, other
  // processes on 68 % of the CPU, delays of 0.5 ms but one of 368 ms (here 69 %).
  const once = analysis.judgeMachine(load({ busyShare: 1, loadCores: 0.3 }), samples({ serverCpu: 0.32, delay: 0.5, spike: 368 }))
  t.match(once, { busy: true, delayBeyondMachine: false }, 'one long wait is the machine\'s')
  t.match(analysis.describeDoctorVerdict('fixed', UNKNOWN_ON_FIXED, once), /^Doctor did not judge fixed: the machine was busy\. .*\n {2}other processes used 69 % /)
  t.match(analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, machine), FIXED_NOT_JUDGED, 'test:clinic accepts it')
})

// A CI run, Node 24.21: the host held back 34 to 38 % of 2 cores (steal), fixed got 0.50 of a core, its load 0.39, Doctor
// flagged its CPU check. Read without steal (os.cpus()), the machine was quiet and the verdict Doctor's.
t.test("a virtual machine's host that holds back the cores is a busy machine", { skip: skipWithoutClinic }, async (t) => {
  const held = analysis.judgeMachine(load({ busyShare: 0.795, loadCores: 0.39, stolenShare: 0.35 }), samples({ serverCpu: 0.5, delay: 1 }))
  t.match(held, { measured: true, busy: true, delayBeyondMachine: false })
  const verdict = analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, held)
  t.same(verdict.split('\n'), [
    'Doctor did not judge fixed: the machine was busy. Run it again on a quieter machine.',
    "  other processes used 0 % of the CPU during the load, the virtual machine's host held back 35 %",
    '  fixed got 0.50 of a core',
    "  Doctor's headline, read from a server short of CPU: io issue detected",
    '  flagged: cpu'])
  t.match(verdict, FIXED_NOT_JUDGED, 'test:clinic accepts it')
  const unseen = analysis.judgeMachine(load({ busyShare: 0.795 - 0.35, loadCores: 0.39 }), samples({ serverCpu: 0.5, delay: 1 }))
  t.equal(analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, unseen), IO_ISSUE, 'steal unseen: Doctor\'s')
  const little = analysis.judgeMachine(load({ busyShare: 0.99, stolenShare: 0.004 }), samples({ serverCpu: 0.44, delay: 4 }))
  t.match(analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, little), /^Doctor did not judge fixed: .*\n {2}other processes used 62 % of the CPU during the load\n/, 'a host that took little: unsaid')
})

t.test("beside a CPU hog, slow's delay is still flagged: it is beyond what the machine explains", { skip: skipWithoutClinic }, async (t) => {
  const machine = analysis.judgeMachine(load({ busyShare: 0.99 }), samples({ serverCpu: 0.5, delay: 60, spike: 400 }))
  t.match(machine, { busy: true, delayBeyondMachine: true })
  const verdict = analysis.describeDoctorVerdict('slow', { issueCategory: 'unknown', issues: { delay: 'performance', cpu: 'performance', memory: {} } }, machine)
  t.match(verdict, /^Doctor flags slow's event-loop delay\. The CPU's speed can change this verdict\.\n {2}Doctor's headline: unknown issue detected\n {2}also flagged: cpu\n {2}the machine was busy: other processes used \d+ % of the CPU during the load\n {2}the delay is beyond what that explains$/)
  // The recorded run of slow (quiet), judged as if the machine had been all
  // busy meanwhile: its own delay stays beyond what a busy machine explains.
  const recorded = await analysis.readProcessStats(DOCTOR_DATA)
  const from = recorded[0].timestamp - 1
  const to = recorded[recorded.length - 1].timestamp
  const allMs = 2 * (to - from)
  const onRecord = analysis.judgeMachine({ from, to, cores: 2, allMs, busyMs: allMs, loadMs: 0.3 * (to - from) }, recorded)
  t.match(onRecord, { busy: true, delayBeyondMachine: true }, JSON.stringify(onRecord))
})

t.test('a quiet machine, or one with a core to spare, leaves Doctor\'s verdict as it is', { skip: skipWithoutClinic }, async (t) => {
  const quiet = analysis.judgeMachine(load({ busyShare: 0.7, loadCores: 0.4 }), samples({ serverCpu: 0.95, delay: 1, spike: 20 }))
  t.match(quiet, { measured: true, busy: false })
  t.ok(quiet.othersShare < 0.05, `others ${quiet.othersShare}`)
  t.equal(analysis.describeDoctorVerdict('fixed', { issueCategory: 'none', issues: {} }, quiet), 'Doctor detects no issue in fixed.')
  // A server waiting on I/O: under 0.9 of a core in most samples, and its
  // run's own processes idle too (fixed behind a 1 ms wait per request,
  // Node 26.12.1: 0.42 of a core, autocannon and clinic's 0.33).
  const waiting = analysis.judgeMachine(load({ busyShare: 0.38, loadCores: 0.33 }), samples({ serverCpu: 0.42, delay: 1 }))
  t.match(waiting, { busy: false, serverMedianCores: 0.42 })
  t.equal(analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, waiting), IO_ISSUE)
  // 16 cores, others on 30 % of them (4.8 cores), 6 idle: the server had room.
  const big = analysis.judgeMachine(load({ cores: 16, busyShare: 0.378, loadCores: 0.3 }), samples({ serverCpu: 0.95, delay: 1 }))
  t.ok(big.othersShare > 0.25 && big.idleCores >= 1, JSON.stringify(big))
  t.equal(big.busy, false)
})

// Node 24.21, quiet: Doctor's CPU check flagged fixed (io issue detected)
// on 23 samples of 469 at 0.58 of a core, the other 446 at 0.99, its model
// taking the few for the application's mode (docs/diagnose.md, "Doctor's
// CPU check on a busy server").
t.test("Doctor's CPU check alone, on a server busy in most samples, is no issue", { skip: skipWithoutClinic }, async (t) => {
  const list = samples({ serverCpu: 0.99, delay: 1 }).map((sample, i) => i % 20 === 7 ? { ...sample, cpu: 0.58 } : sample)
  const machine = analysis.judgeMachine(load({ busyShare: 0.86, loadCores: 0.73 }), list)
  t.match(machine, { busy: false, serverMedianCores: 0.99 })
  const busyInMedian = analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, machine)
  t.same(busyInMedian.split('\n'), [
    "No issue in fixed: only Doctor's CPU check flags it, and that check misreads it.",
    "  Doctor's headline: io issue detected",
    '  fixed used 0.99 of a core in its median sample: not a server waiting on I/O'])
  t.match(busyInMedian, FIXED_CPU_CHECK_ALONE, 'test:clinic accepts it on two cores')
  // Anything flagged beside the CPU, the verdict is Doctor's.
  const withHandles = { issueCategory: 'io', issues: { cpu: 'performance', handles: 'performance', memory: {} } }
  t.equal(analysis.describeDoctorVerdict('fixed', withHandles, machine), IO_ISSUE.replace('flagged: cpu', 'flagged: cpu, handles'))
  // Where the OS gave no CPU times, the machine is not measured, and neither is this.
  t.equal(analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, { measured: false, why: 'the OS gave no CPU times' }),
    `${IO_ISSUE}\n  how busy the machine was is unknown: the OS gave no CPU times`)
})

// Node 26.12.1: fixed and the run's own processes (autocannon, clinic's) on one core
// (`taskset -c 0`) read 0.52 and 0.47 of it, Doctor's CPU check flagging fixed every time; a fresh-clone CI run on 2 cores once read fixed at 0.63 in its median
// sample, its load at about a core. Each waited on the other, not on I/O.
t.test("Doctor's CPU check alone, on a server waiting on its load, is no issue", { skip: skipWithoutClinic }, async (t) => {
  const oneCore = analysis.judgeMachine(load({ busyShare: 0.5, loadCores: 0.47 }), samples({ serverCpu: 0.52, delay: 1 }))
  t.match(oneCore, { busy: false, serverMedianCores: 0.52 })
  const onOneCore = analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, oneCore)
  t.same(onOneCore.split('\n'), [
    "No issue in fixed: only Doctor's CPU check flags it, and that check misreads it.",
    "  Doctor's headline: io issue detected",
    '  fixed used 0.52 of a core, its load 0.47: a server waiting on its load, not on I/O'])
  t.match(onOneCore, FIXED_ON_ONE_CORE, 'test:clinic accepts it on one core')
  const inStep = analysis.judgeMachine(load({ busyShare: 0.8, loadCores: 0.95 }), samples({ serverCpu: 0.63, delay: 1 }))
  const waitingInStep = analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, inStep)
  t.match(waitingInStep, /^No issue in fixed: .*\n.*\n {2}fixed used 0\.63 of a core, its load 0\.95: a server waiting on its load, not on I\/O$/)
  t.match(waitingInStep, FIXED_CPU_CHECK_ALONE, 'test:clinic accepts it on two cores')
  const short = analysis.judgeMachine(load({ busyShare: 0.5, loadCores: 0.37 }), samples({ serverCpu: 0.52, delay: 1 }))
  t.equal(analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, short), IO_ISSUE, 'the two short of 0.9: Doctor\'s')
  const held = analysis.judgeMachine(load({ busyShare: 0.51, loadCores: 0.39, stolenShare: 0.063 }), samples({ serverCpu: 0.5, delay: 1 }))
  t.match(analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, held), FIXED_ON_ONE_CORE, 'a CI run on one core, Node 24.21: 0.50 and 0.40 (0.896), the host holding back 6 % (steal), theirs to use')
})

t.test('where the OS gives no CPU times, the verdict is Doctor\'s and says the machine was not measured', { skip: skipWithoutClinic }, async (t) => {
  const unknown = analysis.judgeMachine({ from: 1000, to: 6000, cores: 0, allMs: null, busyMs: null, loadMs: 100 }, samples({ serverCpu: 0.5, delay: 4 }))
  t.same(unknown, { measured: false, why: 'the OS gave no CPU times' })
  t.equal(analysis.describeDoctorVerdict('fixed', IO_ON_FIXED, unknown), `${IO_ISSUE}\n  how busy the machine was is unknown: the OS gave no CPU times`)
  t.equal(analysis.describeDoctorVerdict('fixed', { issueCategory: 'none', issues: {} }, unknown), 'Doctor detects no issue in fixed.')
  t.same(analysis.judgeMachine(load({ busyShare: 0.9 }), []), { measured: false, why: 'the server was not sampled during the load' })
})
