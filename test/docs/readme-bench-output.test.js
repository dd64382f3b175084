'use strict'

// The README's output blocks of step 1 (npm start) and step 8 (the crypto
// story's bench) held by shape to real runs: a run takes minutes, too long
// for npm test, so each is kept as its --json result (test/bench/fixtures/)
// and rendered here with the benchmark's own printer. The README's lines
// must appear in that rendering in order, each whole, figures aside: a
// changed sentence of the printer fails until the README follows it.
//
// A new README block needs a new fixture from the same run:
//   npm start -- --json test/bench/fixtures/readme-start-run.json
//   npm run bench -- --mode crypto --json test/bench/fixtures/readme-crypto-run.json

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const text = require('../../bench/print/text')
const { readmeOutput, unmatchedLine } = require('../readme-output')

const FIXTURES = path.join(__dirname, '..', 'bench', 'fixtures')

// What `node bench` prints of a run, but for its round lines and the page's path.
function rendered (run) {
  return [
    text.renderProtocol({ mode: run.mode, protocol: run.protocol, targets: run.targets, machine: run.machine, versions: run.versions }),
    ...text.renderResults(run),
    text.renderVerdict(run)
  ].join('\n\n')
}

const STEPS = [
  { step: '1', command: 'npm start', fixture: 'readme-start-run.json', mode: 'start' },
  { step: '8', command: 'npm run bench -- --mode crypto', fixture: 'readme-crypto-run.json', mode: 'crypto' }
]

for (const { step, command, fixture, mode } of STEPS) {
  t.test(`step ${step}: the README shows ${fixture}'s lines, by shape`, async (t) => {
    const run = JSON.parse(fs.readFileSync(path.join(FIXTURES, fixture), 'utf8'))
    t.equal(run.mode, mode, `a run of mode ${mode}`)
    t.match(run.machine.node, /^v26\./, 'on Node 26, as the README says')
    const shown = readmeOutput(step, command)
    t.ok(shown.length >= 3, 'a block of lines, not one')
    t.notOk(shown.some((line) => /…|\.\.\./.test(line)), 'nothing elided')
    t.equal(unmatchedLine(shown, rendered(run)), null, `the block after \`${command}\` is this run's`)
  })
}
