'use strict'

// How a counted process runs under callgrind (V8's flags, what is left out of the count) and how the count is read through vgdb.

const path = require('node:path')
const { execFile } = require('node:child_process')

// V8 set to repeat itself: one thread, fixed seeds, a GC schedule free of the clock, early tiering, and marking only inside Heap::CollectGarbage.
const V8_FLAGS = [
  '--predictable',
  '--predictable-gc-schedule',
  '--single-threaded',
  '--hash-seed=1',
  '--random-seed=1',
  '--invocation-count-for-turbofan=300',
  '--invocation-count-for-maglev=40',
  '--minimum-invocations-after-ic-update=50',
  '--no-incremental-marking'
]

// Not counted (--toggle-collect: collection flips on entry and back on return, so none of these calls another): JIT compilation, deoptimization and GC.
// DefaultJobWorker::Run is where Node's platform workers join a scavenge, --single-threaded or not. Names as V8 12 to 14 (Node 22 to 26) spell them.
const NOT_COUNTED = [
  'v8::internal::Runtime_CompileLazy(*)',
  'v8::internal::Runtime_CompileBaseline(*)',
  'v8::internal::Runtime_InstallBaselineCode(*)',
  'v8::internal::Runtime_CompileOptimized*(*)',
  'v8::internal::Runtime_OptimizeTurbofanEager(*)',
  'v8::internal::Runtime_OptimizeMaglevEager(*)',
  'v8::internal::Runtime_NotifyDeoptimized(*)',
  'v8::internal::Heap::CollectGarbage(*)',
  'v8::platform::DefaultJobWorker::Run()'
]

// libuv's poll is not counted, the callbacks it calls are: how often the loop wakes depends on how fast the process runs. io_uring's completions are not among them.
const POLL = 'uv__io_poll'
const POLL_CALLBACKS = ['uv__stream_io', 'uv__server_io', 'uv__async_io', 'uv__signal_event', 'uv__udp_io', 'uv__poll_io', 'uv__inotify_read']

// Taken out of the count from the dump, not toggled: a toggle hit where collection is off would turn it on (docs/instructions.md, "Why each choice").
const CALLS_LEFT_OUT = {
  allocator: {
    object: /\/libc\.so(\.\d+)*$/,
    functions: new Set(['malloc', 'free', 'calloc', 'realloc', 'reallocarray', 'posix_memalign', 'aligned_alloc', 'memalign', 'valloc', 'pvalloc'])
  },
  clock: { object: /\/libfaketime[^/]*\.so(\.\d+)*$/, functions: null }
}

// vgdb's files go in the count's own folder, removed with it: valgrind removes them only when it exits of itself, and the meter kills it.
const VGDB_PREFIX = 'vgdb-pipe'

function valgrindArgs (dir) {
  return [
    '--tool=callgrind',
    '--smc-check=all-non-file',
    '--instr-atstart=no',
    `--callgrind-out-file=${path.join(dir, 'callgrind.out')}`,
    `--vgdb-prefix=${path.join(dir, VGDB_PREFIX)}`,
    ...[...NOT_COUNTED, POLL, ...POLL_CALLBACKS].map((name) => `--toggle-collect=${name}`),
    // After the toggles, each of which would set it to no.
    '--collect-atstart=yes'
  ]
}

// A dump's count (format: https://valgrind.org/docs/manual/cl-format.html) less each call of CALLS_LEFT_OUT from counted code, callees included.
function countFromDump (text) {
  const names = { ob: new Map(), fn: new Map() }
  const nameOf = (kind, value) => {
    const compressed = /^\((\d+)\)(?: (.*))?$/.exec(value)
    if (compressed === null) return value
    if (compressed[2] !== undefined) names[kind].set(compressed[1], compressed[2])
    return names[kind].get(compressed[1])
  }
  const leftOutAs = (fn, ob) => Object.keys(CALLS_LEFT_OUT).find((kind) => {
    const { object, functions } = CALLS_LEFT_OUT[kind]
    return object.test(ob ?? '') && (functions === null || functions.has(fn))
  }) ?? null
  const leftOut = Object.fromEntries(Object.keys(CALLS_LEFT_OUT).map((kind) => [kind, 0]))
  let summary = null
  let ob = null
  let fn = null
  let calleeOb = null
  let callee = null
  let costOfCall = false
  for (const line of text.split('\n')) {
    if (line.startsWith('summary: ')) summary = Number(line.slice(9))
    else if (line.startsWith('ob=')) ob = nameOf('ob', line.slice(3))
    else if (line.startsWith('fn=')) fn = nameOf('fn', line.slice(3))
    else if (line.startsWith('cob=')) calleeOb = nameOf('ob', line.slice(4))
    else if (line.startsWith('cfn=')) callee = nameOf('fn', line.slice(4))
    else if (line.startsWith('calls=')) costOfCall = true
    else if (costOfCall && /^[-+*0-9]/.test(line)) {
      const kind = leftOutAs(callee, calleeOb ?? ob)
      if (kind !== null && leftOutAs(fn, ob) === null) leftOut[kind] += Number(line.split(' ')[1] ?? 0)
      costOfCall = false
      calleeOb = null
    }
  }
  if (summary === null || Number.isNaN(summary)) throw new Error(`callgrind's profile has no summary:\n${text.slice(0, 500)}`)
  const instructions = summary - Object.values(leftOut).reduce((sum, count) => sum + count, 0)
  return { instructions, leftOut }
}

// vgdb wakes a process asleep in a system call itself after this long: the meter asks only once the server is idle, so waiting longer buys nothing.
const VGDB_INVOKE_MS = 10

function runVgdb (pid, command, { dir, env }) {
  const args = [`--pid=${pid}`, `--vgdb-prefix=${path.join(dir, VGDB_PREFIX)}`, `--max-invoke-ms=${VGDB_INVOKE_MS}`, ...command.split(' ')]
  return new Promise((resolve, reject) => {
    execFile('vgdb', args, { env, encoding: 'utf8', timeout: 30000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`vgdb ${command} failed: ${(stderr || err.message).trim()}`))
      else resolve(stdout)
    })
  })
}

module.exports = { V8_FLAGS, NOT_COUNTED, POLL, CALLS_LEFT_OUT, valgrindArgs, countFromDump, runVgdb }
