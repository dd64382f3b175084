'use strict'

// bench:serializer as a user runs it: what it prints and writes, that the
// three serializers it times write the same bytes, and its usage errors.
// Not its timings: those are the benchmark's to claim (docs/serializer.md;
// the values in docs/figures.md, "serializer").

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')
const { SERIALIZERS, seedBodies, disagreements } = require('../../bench/serializer/contenders')
const { verdictOf } = require('../../bench/serializer/verdict')

const ENTRY = path.join(ROOT, 'bench', 'serializer')
const NAMES = ['JSON.stringify', 'fast-json-stringify', 'direct string']

const runCommand = (...args) => spawnSync(process.execPath, [ENTRY, ...args], { cwd: ROOT, encoding: 'utf8' })

t.test('the three serializers write byte-identical JSON for both bodies, on this Node', async (t) => {
  const bodies = await seedBodies()
  t.same(bodies.map(({ id }) => id), ['fixed', 'small'])
  t.equal(bodies[0].body.data.length, 10000, "fixed's body: 5000 bytes as hex")
  t.equal(bodies[1].body.data.length, 64)
  t.same(SERIALIZERS.map(({ name }) => name), NAMES)
  for (const { label, body } of bodies) {
    const outputs = SERIALIZERS.map(({ serialize }) => Buffer.from(serialize(body)))
    for (const [index, output] of outputs.entries()) {
      t.ok(output.equals(outputs[0]), `${label}: ${NAMES[index]} writes JSON.stringify's bytes`)
    }
    t.same(JSON.parse(outputs[0]), body, `${label}: the JSON reads back as the body`)
  }
  t.same(disagreements(bodies), [])
})

t.test('the check it runs first catches a serializer that writes other bytes', async (t) => {
  const bodies = await seedBodies()
  const spaced = { name: 'spaced', serialize: (body) => JSON.stringify(body, null, 1) }
  t.same(disagreements(bodies, [SERIALIZERS[0], spaced]), [
    "spaced differs from JSON.stringify on fixed's body",
    'spaced differs from JSON.stringify on a small body (64 characters of data)'
  ])
})

t.test('the verdict names the faster one only when every round agrees', async (t) => {
  const ratio = (median, min, max) => ({ of: 'JSON.stringify', over: 'fast-json-stringify', median, min, max, rounds: 3 })
  t.match(verdictOf(ratio(1.5, 1.2, 1.8)), { faster: 'fast-json-stringify', factor: 1.5, text: /^fast-json-stringify is faster: JSON.stringify takes 1\.50x its time \(JSON.stringify \/ fast-json-stringify 1\.50, 1\.20-1\.80 over 3 rounds\)$/ })
  t.match(verdictOf(ratio(0.5, 0.4, 0.8)), { faster: 'JSON.stringify', factor: 2, text: /^JSON.stringify is faster: fast-json-stringify takes 2\.00x its time/ })
  t.match(verdictOf(ratio(1.1, 0.95, 1.3)), { faster: null, factor: null, text: /within the rounds' spread/ })
})

t.test('a short run prints the setting, the protocol and each body, and writes --json', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serializer-test-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'figures.json')
  const run = runCommand('--rounds', '2', '--batch-ms', '1', '--json', file)
  t.equal(run.status, 0, run.stderr)
  t.equal(run.stderr, '')
  t.match(run.stdout, new RegExp(`^Node ${process.version.replace(/\./g, '\\.')}, V8 ${process.versions.v8.replace(/\./g, '\\.')}, fast-json-stringify \\d`))
  t.match(run.stdout, /\nCPU: \d+ x .+/)
  t.match(run.stdout, /\nProtocol: one process; 2 rounds after 2 of warm-up/)
  for (const label of ["fixed's body: 10,04\\d bytes of JSON", 'a small body \\(64 characters of data\\): 1\\d\\d bytes of JSON']) {
    t.match(run.stdout, new RegExp(`\\n${label}, [\\d,]+ serializations each a round\\n`))
  }
  for (const name of NAMES) t.equal(run.stdout.match(new RegExp(`\\n  ${name} +[\\d,.]+ `, 'g'))?.length, 2, `${name}: a line per body`)
  t.equal(run.stdout.match(/\n {2}verdict: /g)?.length, 2, 'a verdict per body')

  const result = JSON.parse(fs.readFileSync(file, 'utf8'))
  t.equal(result.node, process.version)
  t.equal(result.v8, process.versions.v8)
  t.type(result.cpu, 'string')
  t.same(result.protocol, { rounds: 2, batchMs: 1, sliceMs: 0.25, warmupRounds: 2 })
  t.same(Object.keys(result.bodies), ['fixed', 'small'])
  for (const [id, body] of Object.entries(result.bodies)) {
    t.same(Object.keys(body.ns), NAMES, `${id}: ns for each serializer`)
    t.ok(Object.values(body.ns).every((ns) => ns > 0), `${id}: every ns is a time`)
    t.same(Object.keys(body.ratios), ['JSON.stringify / fast-json-stringify', 'JSON.stringify / direct string'])
    t.same(body.ratio, body.ratios['JSON.stringify / fast-json-stringify'], `${id}: ratio is the one the verdict reads (npm run figures reads it)`)
    for (const ratio of Object.values(body.ratios)) {
      t.ok(ratio.min <= ratio.median && ratio.median <= ratio.max, `${id}: min <= median <= max`)
      t.equal(ratio.rounds, 2)
    }
    t.match(body.verdict, { text: String })
  }
})

t.test('a bad option exits 2 with its message and the usage line', async (t) => {
  for (const args of [['--rounds', '0'], ['--batch-ms', 'soon'], ['--fast']]) {
    const run = runCommand(...args)
    t.equal(run.status, 2, args.join(' '))
    t.equal(run.stdout, '')
    t.match(run.stderr, /^bench:serializer: .+\nUsage: npm run bench:serializer -- .+\n\(--help for more\)\n$/, args.join(' '))
  }
  const help = runCommand('--help')
  t.equal(help.status, 0)
  t.match(help.stdout, /^Usage: npm run bench:serializer /)
})
