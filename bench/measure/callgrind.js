'use strict'

// The instruction meter's valgrind: how a counted process runs under
// callgrind (V8's flags for a count that repeats, what is left out of the
// count), and how the count is read from it through vgdb.
// bench/measure/instructions.js tells the whole run, and why.

const path = require('node:path')
const { execFile } = require('node:child_process')

/**
 * V8's settings for a count that repeats: one thread (compilation and GC
 * on the main thread, in order), fixed hash and random seeds, a GC
 * schedule that does not depend on the clock, and tiering up after
 * hundreds of calls instead of thousands (with V8's defaults, fixed was
 * still compiling functions for TurboFan after 5,000 requests).
 */
const V8_FLAGS = [
  '--predictable',
  '--predictable-gc-schedule',
  '--single-threaded',
  '--hash-seed=1',
  '--random-seed=1',
  '--invocation-count-for-turbofan=300',
  '--invocation-count-for-maglev=40',
  '--minimum-invocations-after-ic-update=50',
  // Marking only inside Heap::CollectGarbage, which is not counted.
  '--no-incremental-marking'
]

/**
 * The functions whose instructions are not counted (callgrind's
 * --toggle-collect: collection flips on entry and flips back on return).
 * JIT compilation (lazy, baseline, Maglev, TurboFan, on-stack) and
 * deoptimization are entered through these runtime functions from
 * JavaScript; garbage collection through Heap::CollectGarbage ("(*)": the
 * function, not its lambdas). None of them calls another. Names as V8 12
 * to 14 (Node 22 to 26) spell them.
 * On Node 26 (V8 14.6) a scavenge is a job that Node's platform worker
 * threads join, --single-threaded and --no-parallel-scavenge or not: the
 * main thread's share is inside Heap::CollectGarbage, the workers' share
 * was counted, and how the pages split between them moved from one
 * scavenge to the next: fixed's windows read at two levels far more than
 * the gate's allowance apart, where Node 24's agreed (the workers'
 * Scavenger::ScavengePage). A job's work on a worker is entered through
 * DefaultJobWorker::Run, once per job (a worker thread's own loop started
 * before counting did, so toggling it would not be seen).
 */
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

/**
 * The event loop's waiting: libuv's poll (epoll, the clock reads and the
 * idle-time bookkeeping around it) is not counted, the callbacks it calls
 * are (each flips collection back on inside it): how often the loop woke
 * up depends on how fast the process ran, not on the code. Measured: fixed
 * sharing its core with a busy loop counted more than alone, past the
 * gate's allowance with the poll counted, within it without. The
 * callbacks are libuv 1.x's watchers (streams, listening sockets, async
 * handles, signals, UDP,
 * uv_poll, inotify); io_uring's completions are not among them.
 */
const POLL = 'uv__io_poll'
const POLL_CALLBACKS = ['uv__stream_io', 'uv__server_io', 'uv__async_io', 'uv__signal_event', 'uv__udp_io', 'uv__poll_io', 'uv__inotify_read']

/**
 * Calls whose instructions are taken out of a window's count after it is
 * read, from the profile callgrind dumps (countFromDump): each call's
 * instructions, its callees' included, where the caller is counted code.
 * Not toggled as NOT_COUNTED is: --toggle-collect flips collection, so a
 * function toggled that is called where collection is already off (the
 * garbage collector freeing buffers, libuv's poll reading the clock) would
 * turn it on, and those calls would be counted by how often the collector
 * and the poll ran (measured, toggling the clock's functions made fixed's
 * count move with the pauses between requests, by several times the gate's
 * allowance).
 * - `allocator`: the C library's malloc and free, whose cost a call
 *   depends on what the process allocated before, not on the code:
 *   fast's count moved with the length of the tree's path (module paths
 *   are allocated at startup) and between two processes of the same tree,
 *   by as much as the gate allows; left out, by a fraction of that. The
 *   code that asks for memory is counted, what the allocator does to find
 *   it is not (docs/instructions.md, "The allocator left out").
 * - `clock`: libfaketime's functions, which stand the clock still
 *   (instruction-count.js's FROZEN_CLOCK): a real clock read costs a few
 *   dozen instructions, the fake's several hundred (thousands in each of
 *   fixed's requests, a share of its count that diluted every change).
 */
const CALLS_LEFT_OUT = {
  allocator: {
    object: /\/libc\.so(\.\d+)*$/,
    functions: new Set(['malloc', 'free', 'calloc', 'realloc', 'reallocarray', 'posix_memalign', 'aligned_alloc', 'memalign', 'valloc', 'pvalloc'])
  },
  clock: { object: /\/libfaketime[^/]*\.so(\.\d+)*$/, functions: null }
}

// valgrind removes its vgdb files only when it exits of itself, and the
// meter ends it with SIGKILL (instruction-count.js's stop): under its
// default prefix, /tmp/vgdb-pipe, every count left three files there. In
// the count's own folder they go when the folder goes. vgdb finds the
// process only under the same prefix.
const VGDB_PREFIX = 'vgdb-pipe'

/**
 * valgrind's arguments for a counted process whose files go in `dir`, a
 * folder of its own: the profile callgrind dumps, when asked, to
 * callgrind.out.N, and vgdb's two FIFOs and shared-memory file (VGDB_PREFIX).
 */
function valgrindArgs (dir) {
  return [
    '--tool=callgrind',
    // V8 writes the code it runs: valgrind must see it change.
    '--smc-check=all-non-file',
    '--instr-atstart=no',
    `--callgrind-out-file=${path.join(dir, 'callgrind.out')}`,
    `--vgdb-prefix=${path.join(dir, VGDB_PREFIX)}`,
    ...[...NOT_COUNTED, POLL, ...POLL_CALLBACKS].map((name) => `--toggle-collect=${name}`),
    // After the toggles, each of which would set it to no.
    '--collect-atstart=yes'
  ]
}

/**
 * The instructions a dump of callgrind's profile (`text`, its format:
 * https://valgrind.org/docs/manual/cl-format.html) counted, less the calls
 * of CALLS_LEFT_OUT: { instructions, leftOut: { allocator, clock } }.
 * `summary:` is what was counted since the counters were zeroed (all
 * threads); a call's cost line, after its `calls=` line, is what the call
 * cost with its callees. Names are compressed (`fn=(12) name` once, then
 * `fn=(12)`); a call's object (`cob=`) is the caller's unless given.
 * Written here: the format is a few line kinds, and no maintained npm
 * package reads it. Throws when the text has no summary.
 */
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
      // A left-out call made inside another (malloc inside the fake's
      // clock, say) is in that one's cost already.
      if (kind !== null && leftOutAs(fn, ob) === null) leftOut[kind] += Number(line.split(' ')[1] ?? 0)
      costOfCall = false
      calleeOb = null
    }
  }
  if (summary === null || Number.isNaN(summary)) throw new Error(`callgrind's profile has no summary:\n${text.slice(0, 500)}`)
  const instructions = summary - Object.values(leftOut).reduce((sum, count) => sum + count, 0)
  return { instructions, leftOut }
}

// vgdb serves a command to a process that sleeps in a system call by
// waking it up itself after this long (its default, 100 ms, waits for the
// process to look in on its own); the meter asks only once the server is
// idle (instruction-count.js's untilIdle), so waiting longer buys nothing.
const VGDB_INVOKE_MS = 10

/**
 * Send `command` (a monitor command: 'dump', 'zero', ...) through vgdb to
 * the valgrind `pid`, started with valgrindArgs(`dir`); resolves to vgdb's
 * answer.
 */
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
