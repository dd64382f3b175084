'use strict'

// The benchmark's options: defaults per mode, overrides, and clear refusals.

const t = require('tap')
const { parseOptions } = require('../bench/options')
const { UsageError } = require('../tooling/command')
const { MODES } = require('../bench/goals')

t.test('each mode brings its protocol', async (t) => {
  for (const mode of Object.keys(MODES)) {
    const options = parseOptions(['--mode', mode])
    t.same(options.protocol, MODES[mode].protocol, mode)
  }
  t.equal(parseOptions([]).mode, 'full', 'full by default')
})

t.test('options override the mode', async (t) => {
  const options = parseOptions(['--mode', 'ci', '--targets', 'fixed, node-http', '--connections', '10',
    '--warmup', '0', '--duration', '1.5', '--rounds', '4', '--json', 'r.json', '--markdown', 'r.md',
    '--baseline', 'b.json', '--tolerance', '10'])
  t.same(options.protocol, { targets: ['fixed', 'node-http'], connections: 10, warmup: 0, duration: 1.5, rounds: 4 })
  t.equal(options.json, 'r.json')
  t.equal(options.markdown, 'r.md')
  t.equal(options.baseline, 'b.json')
  t.equal(options.tolerance, 0.1)
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
    [['--tolerance', 'x'], /--tolerance must be a number/],
    [['--targets', 'fixed-304', '--duration', '50', '--warmup', '10'], /within 55 s: fixed's ETag changes once a minute/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['extra'], /positional/i]
  ]
  for (const [argv, message] of refusals) {
    t.throws(() => parseOptions(argv), { constructor: UsageError, message }, argv.join(' '))
  }
})
