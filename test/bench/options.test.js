'use strict'

// The benchmark's options: defaults per mode, overrides, and clear refusals.

const t = require('tap')
const { parseOptions } = require('../../bench/options')
const { UsageError } = require('../../tooling/command')
const { MODES, RATIOS } = require('../../bench/judge/goals')

t.test('each mode brings its protocol', async (t) => {
  for (const mode of Object.keys(MODES)) {
    const options = parseOptions(['--mode', mode])
    t.same(options.protocol, MODES[mode].protocol, mode)
  }
  t.equal(parseOptions([]).mode, 'full', 'full by default')
})

t.test('every goal of every mode is a ratio between targets that mode runs (else it would never be checked)', async (t) => {
  for (const [mode, { protocol, goals }] of Object.entries(MODES)) {
    for (const name of Object.keys(goals)) {
      const ratio = RATIOS.find((r) => r.name === name)
      t.ok(ratio, `${mode}: ${name} is a ratio the bench computes`)
      t.ok(ratio && protocol.targets.includes(ratio.of) && protocol.targets.includes(ratio.over),
        `${mode}: ${name} compares targets of the mode (${protocol.targets.join(', ')})`)
    }
  }
  t.same(MODES.crypto.protocol.targets, ['crypto-slow', 'crypto-fixed'], 'a story mode runs its pair')
})

t.test('options override the mode', async (t) => {
  const options = parseOptions(['--mode', 'ci', '--targets', 'fixed, node-http', '--connections', '10',
    '--warmup', '0', '--duration', '1.5', '--warmup-requests', '50', '--requests', '30', '--rounds', '4',
    '--json', 'r.json', '--markdown', 'r.md', '--bencher-json', 'b.json', '--github-benchmark-json', 'g.json',
    '--baseline', 'base.json', '--alpha', '0.05', '--cpu-tax', 'fixed=2.5'])
  t.same(options.protocol, { targets: ['fixed', 'node-http'], connections: 10, warmup: 0, duration: 1.5, warmupRequests: 50, requests: 30, rounds: 4 })
  t.equal(options.json, 'r.json')
  t.equal(options.markdown, 'r.md')
  t.equal(options.bencherJson, 'b.json')
  t.equal(options.githubBenchmarkJson, 'g.json')
  t.equal(options.baseline, 'base.json')
  t.equal(options.alpha, 0.05)
  t.same(options.cpuTax, { fixed: 2.5 })
})

t.test('--target NAME=PATH adds the user\'s server, and the reference it is measured against', async (t) => {
  const options = parseOptions(['--targets', 'fixed', '--target', `mine=${__filename}`])
  t.same(options.protocol.targets, ['fixed', 'mine', 'node-http'])
  t.same(options.targets.mine, { entry: __filename, user: true, about: `your server: node ${__filename}` })
})

t.test('--help is the command skeleton\'s: no option of the bench', async (t) => {
  t.throws(() => parseOptions(['--help']), { constructor: UsageError, message: /Unknown option '--help'/ })
})

t.test('bad options are refused with a message', async (t) => {
  const refusals = [
    [['--mode', 'fastest'], /--mode must be one of start, full, ci/],
    [['--targets', 'slow,express'], /unknown target "express"/],
    [['--targets', ','], /at least one target/],
    [['--targets', 'fast,fast'], /lists a target twice/],
    [['--connections', '0'], /--connections must be an integer >= 1, got "0"/],
    [['--connections', '2.5'], /--connections must be an integer/],
    [['--duration', 'ten'], /--duration must be a number >= 0.5, got "ten"/],
    [['--warmup=-1'], /--warmup must be a number >= 0, got "-1"/],
    [['--rounds', ''], /--rounds must be an integer >= 1/],
    [['--alpha', 'x'], /--alpha must be a number/],
    [['--alpha', '1'], /--alpha must be between 0 and 1/],
    [['--target', 'fixed=./x.js'], /one of the built-in targets/],
    [['--target', 'mine'], /--target wants NAME=PATH/],
    [['--target', 'mine=/no/such/server.js'], /--target mine: no file or folder at \/no\/such\/server\.js/],
    [['--cpu-tax', 'fixed=0'], /--cpu-tax wants TARGET=MICROSECONDS/],
    [['--targets', 'fast', '--cpu-tax', 'fixed=2'], /--cpu-tax fixed: not a target of this run/],
    [['--targets', 'fixed-304', '--duration', '50', '--warmup', '10'], /within 55 s: fixed's ETag changes once a minute/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['extra'], /positional/i]
  ]
  for (const [argv, message] of refusals) {
    t.throws(() => parseOptions(argv), { constructor: UsageError, message }, argv.join(' '))
  }
})
