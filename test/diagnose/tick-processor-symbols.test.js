'use strict'

// The preload that lets Node's tick processor name Node's own C++ functions
// in Flame's runs (diagnose/tick-processor-symbols.js): its two corrections
// on made-up input, then a real profile of SHA-512 hashing read by the tick
// processor of the Node running the tests, without the preload and with it.

// The children below start as a user starts them, without tap's module
// loader in their NODE_OPTIONS (where coverage is off: its header says why).
require('../untapped-children')
const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { textAtLinkAddress, isElfExecutable, withSymbols } = require('../../diagnose/tick-processor-symbols')
const { withPreload } = require('../../diagnose/clinic-run')

const PRELOAD = require.resolve('../../diagnose/tick-processor-symbols')

// The tick processor runs twice, and with the preload reads all of nm's
// tens of MB of the node binary's symbols: 19 to 28 s for this file on an
// AMD EPYC beside others' runs, past tap's default of 30 s at a load
// average of 7 (Node 24 and 26); a slower machine takes longer still.
t.setTimeout(2 * 60 * 1000)

// The start of an ELF file, 64-bit little-endian, of type `type` (2 an
// executable, 3 a shared object or a position-independent executable).
function elfHeader (type) {
  const header = Buffer.alloc(64)
  header.write('\x7fELF', 0, 'latin1')
  header[4] = 2
  header[5] = 1
  header.writeUInt16LE(type, 16)
  return header
}

// `objdump -h` of the Node 26.12.1 binary (linux-x64), two of its sections.
const OBJDUMP = [
  'Idx Name          Size      VMA               LMA               File off  Algn',
  ' 11 .plt          00000c70  0000000000831370  0000000000831370  00431370  2**4',
  '                  CONTENTS, ALLOC, LOAD, READONLY, CODE',
  ' 12 .text         02c9ba39  0000000000832000  0000000000832000  00432000  2**12',
  '                  CONTENTS, ALLOC, LOAD, READONLY, CODE'
].join('\n')

// As V8's LinuxCppEntriesProvider reads it: the .text line's address and file offset.
function textSection (output) {
  const [, , , vma, , fileOffset] = output.split('\n').find((line) => line.includes(' .text ')).trim().split(/\s+/)
  return { vma, fileOffset }
}

t.test('an executable\'s .text is given at its address, so that V8 moves its symbols by nothing', async (t) => {
  const dir = t.testdir({ exec: elfHeader(2), shared: elfHeader(3), text: 'not ELF at all' })
  const exec = path.join(dir, 'exec')
  t.equal(isElfExecutable(exec), true)
  t.same(textSection(textAtLinkAddress(OBJDUMP, exec)), { vma: '0000000000832000', fileOffset: '0000000000832000' })
  t.equal(textAtLinkAddress(OBJDUMP, exec).split('\n')[1], OBJDUMP.split('\n')[1], 'the other sections as they are')
  for (const other of ['shared', 'text', 'missing']) {
    t.equal(isElfExecutable(path.join(dir, other)), false, other)
    t.equal(textAtLinkAddress(OBJDUMP, path.join(dir, other)), OBJDUMP, `${other}: objdump's output as it is`)
  }
})

t.test('spawnSync gets all of the output, and objdump\'s section table of an executable is corrected', async (t) => {
  const dir = t.testdir({ node: elfHeader(2) })
  const calls = []
  const fake = (file, args, options) => {
    calls.push({ file, options })
    return { stdout: Buffer.from(file === 'objdump' ? OBJDUMP : '0000000000832000 T _start\n') }
  }
  const spawn = withSymbols(fake)
  t.equal(String(spawn('nm', ['-C', '-n', '-S', path.join(dir, 'node')]).stdout), '0000000000832000 T _start\n', 'nm\'s output as it is')
  t.same(textSection(String(spawn('objdump', ['-h', path.join(dir, 'node')]).stdout)).fileOffset, '0000000000832000')
  t.same(calls.map(({ options }) => options.maxBuffer), [Infinity, Infinity], 'no 1 MiB limit: nm lists tens of MB for node')
  spawn('nm', ['x'], { maxBuffer: 10 })
  t.equal(calls[2].options.maxBuffer, 10, 'a limit given is kept')
})

t.test('NODE_OPTIONS gets the preload quoted, after what it had', async (t) => {
  t.equal(withPreload(undefined, '/a b/p.js'), '--require "/a b/p.js"')
  t.equal(withPreload('--no-warnings', 'C:\\Program Files\\p.js'), '--no-warnings --require "C:\\\\Program Files\\\\p.js"')
})

// The real thing: half a second of SHA-512 in this Node, profiled with
// --prof, then read by its own tick processor as 0x has it read: one log per
// isolate, as 0x has V8 write them; the process has one, the thread that
// hashes.
const canRun = process.platform === 'linux' && spawnSync('nm', ['--version']).status === 0 && spawnSync('objdump', ['--version']).status === 0
const skip = !canRun && 'the tick processor reads symbols with nm and objdump, on Linux'

t.test("this Node's tick processor names the C++ of the node binary with the preload, and not without", { skip }, async (t) => {
  const dir = t.testdir()
  const hashing = "const c = require('node:crypto'); const b = Buffer.alloc(1 << 20); const end = Date.now() + 500; while (Date.now() < end) c.createHash('sha512').update(b).digest()"
  const run = (args, env) => spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: env } })
  const profiled = run(['--prof', '--logfile=v8.log', '-e', hashing], '')
  t.equal(profiled.status, 0, profiled.stderr)
  // One isolate, the hashing's. A module loader in NODE_OPTIONS whose hooks
  // run on a thread of their own is a second isolate with a log of its own,
  // its ticks that thread waiting in libuv's epoll_pwait the whole run:
  // tap's (@tapjs/processinfo) on Node 22, which registers it with
  // module.register (from Node 24.13 on it hooks in the same thread).
  // Written into one log (--no-logfile-per-isolate, as this test had it),
  // those ticks outnumbered SHA-512's, 42 % against 34 % on an AMD EPYC, and
  // epoll_pwait was the hottest C++ function. Under `npm run test:coverage`
  // tap keeps its loader in every child (test/untapped-children.js), so on
  // Node 22 it is there, and this says so.
  const logs = fs.readdirSync(dir).filter((file) => /^isolate-.*-v8\.log$/.test(file))
  t.equal(logs.length, 1, `one isolate logged, the hashing's: ${logs.join(', ')}`)
  if (logs.length !== 1) return
  const read = (nodeOptions) => {
    const { status, stdout, stderr } = run(['--prof-process', logs[0]], nodeOptions)
    t.equal(status, 0, stderr)
    return { topCpp: hottestIn(stdout, 'C++'), nodeShare: sharedLibraryShare(stdout, process.execPath) }
  }
  const without = read('')
  const withIt = read(withPreload('', PRELOAD))
  t.match(withIt.topCpp, { name: /sha512/ }, `with it, the hottest C++ function is OpenSSL's SHA-512: ${JSON.stringify(withIt)}`)
  t.ok(withIt.nodeShare < 0.1, `and few ticks are left in the binary unnamed: ${withIt.nodeShare}`)
  // When this fails, this Node's tick processor names them by itself, and
  // the preload can go (docs/diagnose.md, step 2).
  t.notMatch(without.topCpp?.name ?? '', /sha512/, `without it, SHA-512 is not named: ${JSON.stringify(without)}`)
})

// The first row of section `name` (" [C++]:") of --prof-process's summary:
// { share, name }, or null when the section has none.
function hottestIn (summary, name) {
  const section = summary.split(`\n [${name}]:\n`)[1]?.split('\n\n')[0] ?? ''
  const row = /^ +\d+ +([\d.]+)% +(?:[\d.]+% +)?(.+)$/m.exec(section.split('\n').slice(1).join('\n'))
  return row && { share: Number(row[1]) / 100, name: row[2] }
}

// The share of ticks --prof-process gives to `library` as a whole: code in
// it that it could not name.
function sharedLibraryShare (summary, library) {
  const section = summary.split('\n [Shared libraries]:\n')[1]?.split('\n\n')[0] ?? ''
  const row = section.split('\n').find((line) => line.trim().endsWith(fs.realpathSync(library)) || line.trim().endsWith(library))
  return row ? Number(/^ +\d+ +([\d.]+)%/.exec(row)[1]) / 100 : 0
}
