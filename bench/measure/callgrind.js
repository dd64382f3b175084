'use strict'

// The instruction meter's valgrind: how a counted process runs under
// callgrind (V8's flags for a count that repeats, what is left out of the
// count), and how the count is read from it through vgdb.
// bench/measure/instructions.js tells the whole run, and why.

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
 * scavenge to the next: fixed's windows read 73,750 and 74,390
 * instructions per request, two levels 0.87 % apart, where Node 24's were
 * 0.01 % apart (the workers' Scavenger::ScavengePage, about 120,000
 * instructions a scavenge). A job's work on a worker is entered through
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
 * sharing its core with a busy loop counted 0.29 % more than alone with the
 * poll counted, 0.07 % more without it. The callbacks are libuv 1.x's
 * watchers (streams, listening sockets, async handles, signals, UDP,
 * uv_poll, inotify); io_uring's completions are not among them.
 */
const POLL = 'uv__io_poll'
const POLL_CALLBACKS = ['uv__stream_io', 'uv__server_io', 'uv__async_io', 'uv__signal_event', 'uv__udp_io', 'uv__poll_io', 'uv__inotify_read']

const VALGRIND_ARGS = [
  '--tool=callgrind',
  // V8 writes the code it runs: valgrind must see it change.
  '--smc-check=all-non-file',
  '--instr-atstart=no',
  '--callgrind-out-file=/dev/null',
  ...[...NOT_COUNTED, POLL, ...POLL_CALLBACKS].map((name) => `--toggle-collect=${name}`),
  // After the toggles, each of which would set it to no.
  '--collect-atstart=yes'
]

/**
 * The instructions counted since the last zero, from callgrind's answer to
 * the monitor command "status internal": the sum of its per-thread totals,
 * the lines "events-<thread>: <count>" (the event being Ir, instructions).
 * Throws when the answer has none.
 */
function parseCallgrindStatus (text) {
  if (!/^events: Ir$/m.test(text)) throw new Error(`callgrind's status counts no instructions:\n${text.slice(0, 500)}`)
  const totals = [...text.matchAll(/^events-\d+: (\d+)$/gm)].map((match) => Number(match[1]))
  if (totals.length === 0) throw new Error(`callgrind's status has no per-thread totals:\n${text.slice(0, 500)}`)
  return totals.reduce((sum, count) => sum + count, 0)
}

function runVgdb (pid, command, env) {
  return new Promise((resolve, reject) => {
    execFile('vgdb', [`--pid=${pid}`, ...command.split(' ')], { env, encoding: 'utf8', timeout: 30000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`vgdb ${command} failed: ${(stderr || err.message).trim()}`))
      else resolve(stdout)
    })
  })
}

module.exports = { V8_FLAGS, NOT_COUNTED, POLL, VALGRIND_ARGS, parseCallgrindStatus, runVgdb }
