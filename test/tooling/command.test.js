'use strict'

// The command skeleton (tooling/command.js), and every command on it: a
// usage error exits 2 with a message, --help exits 0 with the usage.

const t = require('tap')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { capture } = require('../capture')
const { runCommand, UsageError } = require('../../tooling/command')
const { ROOT } = require('../../tooling/repo')

async function run (main, argv = []) {
  const stdout = capture()
  const stderr = capture()
  const code = await runCommand({ name: 'demo', usage: 'Usage: demo [--x]\n\nMore words.\n', main }, argv, { stdout, stderr })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}

t.test('the exit code is what main resolves to', async (t) => {
  t.equal((await run(async () => 0)).code, 0)
  t.equal((await run(async () => 1)).code, 1)
})

t.test('a usage error: exit 2, the message and the usage line', async (t) => {
  const { code, stdout, stderr } = await run(async () => { throw new UsageError('--x wants a value') })
  t.equal(code, 2)
  t.equal(stderr, 'demo: --x wants a value\nUsage: demo [--x]\n(--help for more)\n')
  t.equal(stdout, '')
})

t.test('any other error or rejection: exit 1 with its message', async (t) => {
  const thrown = await run(async () => { throw new Error('the server went away') })
  t.equal(thrown.code, 1)
  t.equal(thrown.stderr, 'demo: the server went away\n')
  const rejected = await run(() => Promise.reject(new Error('late failure')))
  t.equal(rejected.code, 1)
  t.equal(rejected.stderr, 'demo: late failure\n')
})

t.test('--help prints the usage and runs nothing', async (t) => {
  let ran = false
  const { code, stdout } = await run(async () => { ran = true; return 0 }, ['--help'])
  t.equal(code, 0)
  t.equal(stdout, 'Usage: demo [--x]\n\nMore words.\n')
  t.notOk(ran)
})

// Each command as a user runs it: a bad argument stops it before anything
// starts, and --help answers.
const COMMANDS = {
  bench: ['bench', '--rounds', 'many'],
  'bench:compare': ['bench/compare', '--rounds', 'many'],
  'bench:calibrate': ['bench/calibrate', '--gate', 'nightly'],
  soak: ['soak', 'slowest'],
  diagnose: ['diagnose', 'doctor', 'slowest'],
  'check:curl': ['check', 'ftp://example'],
  'trace-leak': ['diagnose/trace-leak.js', 'extra'],
  profile: ['diagnose/profile.js', 'slowest'],
  screenshot: ['diagnose/screenshot.js'],
  verify: ['workshop/verify.js', 'no-such-copy'],
  workshop: ['workshop', 'old'],
  figures: ['figures', '--condition', 'busy']
}

for (const [name, [entry, ...badArgs]] of Object.entries(COMMANDS)) {
  // On every Node line: an exit code is no measurement, and a command that
  // fails to load on one line fails here first.
  t.test(`${name}: a usage error exits 2, --help exits 0`, async (t) => {
    const bad = spawnSync(process.execPath, [path.join(ROOT, entry), ...badArgs], { cwd: ROOT, encoding: 'utf8' })
    t.equal(bad.status, 2, bad.stderr)
    t.match(bad.stderr, new RegExp(`^${name}: .+\\nUsage: `))
    const help = spawnSync(process.execPath, [path.join(ROOT, entry), '--help'], { cwd: ROOT, encoding: 'utf8' })
    t.equal(help.status, 0, help.stderr)
    t.match(help.stdout, /^Usage: /)
  })
}
