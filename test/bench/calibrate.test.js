'use strict'

// bench:calibrate's bookkeeping, with a stand-in for the gate's command (a
// script that writes the --json it is given): the real gates take minutes a
// run, and what is checked here is which files a series leaves behind.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { gateRun, series } = require('../../bench/calibrate')

t.test('a series removes its runs\' results and leaves the baseline it gates against', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calibrate-test-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const script = path.join(dir, 'gate.js')
  fs.writeFileSync(script, `const file = process.argv[process.argv.indexOf('--json') + 1]
require('node:fs').writeFileSync(file, JSON.stringify({ failures: process.argv.includes('--alarm') ? ['a regression'] : [] }))
`)
  const gate = {
    script: [script],
    readRun: (result) => ({ alarm: result.failures.length > 0, what: 'stand-in', change: 0.01, pValue: 0.5 }),
    costOf: () => 101
  }
  const baseline = path.join(dir, 'baseline.json')
  const { result } = await gateRun(gate, ['--json', baseline], baseline)
  t.same(result, { failures: [] })
  const printed = []
  const clean = await series('clean', 2, ['--baseline', baseline], { gate, dir, print: (line) => printed.push(line), cleanCost: 100 })
  const taxed = await series('+5 %', 3, ['--baseline', baseline, '--alarm'], { gate, dir, print: (line) => printed.push(line), cleanCost: 100 })
  t.ok(fs.existsSync(baseline), 'the baseline is still there for the next series')
  t.notOk(fs.existsSync(path.join(dir, 'run.json')), 'no run\'s result is left')
  t.match(clean, { alarms: 0, otherFailures: 0 })
  t.match(taxed, { alarms: 3 })
  t.equal(taxed.measuredChange.toFixed(2), '0.01', 'the taxed cost against the clean cost')
  t.equal(printed.length, 5)
})
