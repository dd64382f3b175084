'use strict'

// A test file that loads the machine or times it (a bench run that judges
// CPU time, verify's speed comparison, hostile input, shutdown, overload)
// must run alone: a neighbour's load would move what it measures. Its
// place says so, test/serial/<room>/, the one folder package.json's tap
// settings name as serial (tap's `serial` takes folders); every other file
// runs beside one other ("jobs": 2). Checked here with tap itself: a
// throwaway project with this project's tap settings and stand-in files
// that log when they start and end.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFile } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')

// An inner tap run of four files, one of which may wait out its deadline:
// longer than tap's 30 s a file beside `npm run cpu-hog`.
t.setTimeout(240000)

const { tap: TAP_SETTINGS } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))

// A stand-in test file: logs its start to SERIAL_CHECK_LOG, waits for one
// of `partners` to run beside it (one that had not ended when it started;
// 10 s at most, well inside tap's 30 s a file: beside a busy process per
// core, tap may start two seconds apart) or `ms`, and logs its end. tap
// starts its files in the order their spawns come, which it does not fix
// (each waits on a stat of its file first): a file next to the serial one
// may have no partner to meet, and ends at its deadline; one that starts
// after a partner ended waits for the other. Two files on each side of the
// serial one, so that in tap's usual order each meets its neighbour and none
// waits out its deadline (ten seconds with a core idle, on every npm test).
function standIn (name, { partners = [], ms = 300 } = {}) {
  return `'use strict'
const fs = require('node:fs')
const t = require('tap')
const log = process.env.SERIAL_CHECK_LOG
const partners = ${JSON.stringify(partners)}
const logged = (line) => fs.readFileSync(log, 'utf8').split('\\n').includes(line)
t.test('${name}', async (t) => {
  fs.appendFileSync(log, 'start ${name}\\n')
  const endedBefore = partners.filter((partner) => logged(\`end \${partner}\`))
  const partnerStarted = () => partners.some((partner) => !endedBefore.includes(partner) && logged(\`start \${partner}\`))
  const deadline = Date.now() + ${partners.length > 0 ? 10000 : ms}
  while (Date.now() < deadline && !partnerStarted()) await new Promise((resolve) => setTimeout(resolve, 20))
  fs.appendFileSync(log, 'end ${name}\\n')
  t.pass()
})
`
}

// tap's own variables, which the runner around this file set, would make
// the inner runner a child of this one; the log's path is added.
function envFor (log) {
  const env = { ...process.env, SERIAL_CHECK_LOG: log }
  for (const key of Object.keys(env)) if (/^(?:TAP|_TAPJS_)/.test(key) || key === 'NODE_OPTIONS') delete env[key]
  return env
}

t.test('package.json marks one folder serial, test/serial, and it holds test files', async (t) => {
  t.same(TAP_SETTINGS.serial, ['test/serial'])
  const files = fs.readdirSync(path.join(ROOT, 'test', 'serial'), { recursive: true }).filter((file) => file.endsWith('.test.js'))
  t.ok(files.length > 0, `test/serial/ holds ${files.join(', ')}`)
})

// The stand-ins that may run two at a time, each the others' partner.
const BESIDE_EACH_OTHER = ['one', 'two', 'after', 'later']
const others = (name) => BESIDE_EACH_OTHER.filter((other) => other !== name)

t.test('under tap, a file in test/serial/ runs alone and the others two at a time', async (t) => {
  // Outside this repository: tap takes the nearest package.json's settings.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serial-check-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const files = {
    'package.json': JSON.stringify({ name: 'serial-check', private: true, tap: TAP_SETTINGS }),
    'test/bench/one.test.js': standIn('one', { partners: others('one') }),
    'test/bench/two.test.js': standIn('two', { partners: others('two') }),
    'test/serial/bench/alone.test.js': standIn('alone'),
    'test/workshop/after.test.js': standIn('after', { partners: others('after') }),
    'test/workshop/later.test.js': standIn('later', { partners: others('later') })
  }
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), text)
  }
  const log = path.join(dir, 'log')
  fs.writeFileSync(log, '')
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'junction')
  const tapBin = path.join(ROOT, 'node_modules', 'tap', 'dist', 'esm', 'run.mjs')
  const run = await new Promise((resolve) => {
    execFile(process.execPath, [tapBin], { cwd: dir, env: envFor(log), timeout: 180000 }, (err, stdout, stderr) =>
      resolve({ code: err ? err.code ?? 1 : 0, output: stdout + stderr }))
  })
  if (!t.equal(run.code, 0, 'the stand-ins pass under tap')) t.comment(run.output.slice(-2000))
  const events = fs.readFileSync(log, 'utf8').trim().split('\n')
  const running = new Set()
  const beside = Object.fromEntries([...BESIDE_EACH_OTHER, 'alone'].map((name) => [name, new Set()]))
  for (const [what, name] of events.map((line) => line.split(' '))) {
    if (what === 'end') { running.delete(name); continue }
    for (const other of running) { beside[name].add(other); beside[other].add(name) }
    running.add(name)
  }
  t.same([...beside.alone], [], `alone ran alone (${events.join(', ')})`)
  // Four files that may run beside each other and one that may not: in
  // any order tap starts them, two of the four are side by side.
  t.ok(BESIDE_EACH_OTHER.some((name) => beside[name].size > 0), `two files ran at the same time: the runner does run two at a time (${events.join(', ')})`)
})
