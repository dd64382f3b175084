'use strict'

// The instruction meter: what one request costs a target in instructions,
// counted by valgrind's callgrind, beside the CPU time the other meter
// reads. CPU time says what a user pays and moves with the machine (a
// shared core, a frequency step, another CPU); an instruction count says
// whether the code changed, and is the same on a quiet machine and a busy
// one. How a run goes, and why (docs/ci-gate.md, "The instruction meter",
// has the figures behind each choice):
// 1. The target starts in a fresh process under callgrind with its
//    instrumentation off (valgrind runs it about 5x faster so), with V8 set
//    to do the same thing every time (V8_FLAGS).
// 2. A client outside valgrind sends it `warmupRequests` requests, one at a
//    time on one kept-alive connection, until V8 has compiled what the
//    request path runs.
// 3. Instrumentation goes on; `settleRequests` more requests are not
//    counted (for about a thousand requests after it goes on, the count
//    still falls, by up to 1 %, wherever that is in the run).
// 4. `windows` windows of `windowRequests` requests are counted, each from
//    zeroed counters: instructions per request, one figure per window.
//    Their spread is the run's own noise.
// What it does not count (NOT_COUNTED, POLL, FROZEN_CLOCK): V8 compiling
// code and collecting garbage, whose moments depend on the clock as much as
// on the code, the event loop's polling, and anything the clock drives:
// the target runs on a clock that stands still; and never the kernel
// (system calls, the network stack), cache misses or any waiting. CPU time
// sees all of those.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { execFile, execFileSync } = require('node:child_process')
const { startTarget } = require('../../tooling/target-process')
const { UsageError } = require('../../tooling/command')
const { readTextOrNull } = require('../../tooling/text-file')
const { stdoutFile, removeStdoutFile } = require('./load')
const { uninstrumented } = require('./uninstrumented')

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
 */
const NOT_COUNTED = [
  'v8::internal::Runtime_CompileLazy(*)',
  'v8::internal::Runtime_CompileBaseline(*)',
  'v8::internal::Runtime_InstallBaselineCode(*)',
  'v8::internal::Runtime_CompileOptimized*(*)',
  'v8::internal::Runtime_OptimizeTurbofanEager(*)',
  'v8::internal::Runtime_OptimizeMaglevEager(*)',
  'v8::internal::Runtime_NotifyDeoptimized(*)',
  'v8::internal::Heap::CollectGarbage(*)'
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

/**
 * The clock stands still in the counted process: libfaketime, preloaded,
 * answers every read of the wall clock and the monotonic clock with this
 * moment. What the clock drives then never happens while counting: no
 * timer fires (the Date header's once-a-second refresh, the keep-alive
 * timers' list, the server's connection check), the Date header is made
 * once, fixed's representation never turns to a new minute. Measured
 * (docs/ci-gate.md, "A clock that stands still"): with the clock running,
 * fixed counted 0.4 % more when its requests came 10 ms apart, half of it
 * in timers and half in the next response remaking the Date header; with
 * the clock frozen, 0.05 %. The fake's own clock functions are counted
 * (about 2,600 instructions of fixed's request, the same on both sides of
 * a comparison): leaving them out with --toggle-collect made the count
 * move with the pauses again (0.6 %). A target that answers from a timer
 * never answers here (SequentialClient says so).
 */
const FROZEN_CLOCK = { at: '2026-01-01 00:00:00' }
// Where distributions put libfaketime (Debian's and Ubuntu's faketime
// package: /usr/lib/<multiarch>/faketime/).
const LIBFAKETIME_PATHS = [
  `/usr/lib/${{ x64: 'x86_64', arm64: 'aarch64' }[process.arch] ?? process.arch}-linux-gnu/faketime/libfaketime.so.1`,
  '/usr/lib64/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
  '/usr/local/lib/faketime/libfaketime.so.1'
]
// A request the target does not answer in this long fails the count.
const REQUEST_TIMEOUT_MS = 60000

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

// The protocol's defaults: 5,000 requests of warm-up (after 2,000, V8 was
// still at work on fixed's request path: some processes' windows rose by up
// to 1.6 % for a few hundred requests between the 3,500th and the 5,500th)
// and 1,500 to settle, five windows of 200; slow after 200 requests (200
// listeners, bench:ci's count), in windows of 20.
const DEFAULTS = { warmupRequests: 5000, settleRequests: 1500, windows: 5, windowRequests: 200, leakingWarmupRequests: 200, leakingWindowRequests: 20 }

// Under valgrind a server takes 5 to 30 s to listen (30 with both cores busy).
const START_TIMEOUT_MS = 120000
// A window whose responses changed representation (fixed's ETag moves once
// a minute) is counted again, this many times at most.
const WINDOW_TRIES = 3

// Loaded into a taxed target, and with no work into the same target on
// the other side, so that the hook's own cost is on both.
const WORK_TAX = path.join(__dirname, 'work-tax.js')

// A usage error to the commands: exit 2, saying what is missing.
class MeterUnavailable extends UsageError {}

/**
 * What the meter runs on: { valgrind: version, libfaketime: path } where
 * valgrind, vgdb and libfaketime are installed and vgdb may wake a process
 * (Yama's ptrace_scope 0), else throws a MeterUnavailable saying what is
 * missing.
 */
function checkMeter ({ platform = process.platform, ptraceScopeFile = '/proc/sys/kernel/yama/ptrace_scope', libfaketimePaths = LIBFAKETIME_PATHS } = {}) {
  if (platform !== 'linux') {
    throw new MeterUnavailable(`the instruction meter needs valgrind on Linux; this is ${platform}: use the CPU meter (the default) here`)
  }
  let version
  try {
    version = execFileSync('valgrind', ['--version'], { encoding: 'utf8' }).trim().replace(/^valgrind-/, '')
    execFileSync('vgdb', ['--help'], { stdio: 'ignore' })
  } catch {
    throw new MeterUnavailable('the instruction meter needs valgrind and its vgdb: install valgrind (apt-get install valgrind)')
  }
  const scope = readTextOrNull(ptraceScopeFile)
  if (scope !== null && scope.trim() !== '0') {
    throw new MeterUnavailable(`vgdb cannot wake a server waiting for requests while kernel.yama.ptrace_scope is ${scope.trim()}: ` +
      'run "sudo sysctl -w kernel.yama.ptrace_scope=0" first')
  }
  return { valgrind: version, libfaketime: findLibfaketime(libfaketimePaths) }
}

/**
 * The first of `paths` that exists; else throws a MeterUnavailable: the
 * counted target runs on a frozen clock (FROZEN_CLOCK).
 */
function findLibfaketime (paths = LIBFAKETIME_PATHS) {
  const found = paths.find((file) => fs.existsSync(file))
  if (found === undefined) {
    throw new MeterUnavailable('the instruction meter runs the server on a clock that stands still, with libfaketime: ' +
      `install it (apt-get install faketime); looked for ${paths.join(', ')}`)
  }
  return found
}

/**
 * Count what one request costs `entry` (a target's entry point, absolute):
 * started with `env` and `nodeArgs` (a tax, say) and its stdout as
 * `stdout` names (a target's kind, or none), in `cwd`; sent `headers`, and
 * for a `conditional` target If-None-Match with its current ETag, which
 * must then answer 304 (else 2xx). Resolves to { windows: [instructions
 * per request], firstRequest: [the request number each window began at],
 * seconds }.
 */
async function countInstructions (entry, { env = {}, nodeArgs = [], headers = {}, conditional = false, stdout, cwd, label = 'target', protocol = DEFAULTS } = {}) {
  const started = Date.now()
  const file = stdoutFile(stdout, `instructions-${label}`)
  // NODE_OPTIONS emptied: what the count depends on is V8_FLAGS and the
  // target's own (a test runner's loader, say, would be counted too); and
  // no harness's coverage (uninstrumented.js).
  env = uninstrumented({ ...env, NODE_OPTIONS: '' })
  const frozenClock = { LD_PRELOAD: findLibfaketime(), FAKETIME: FROZEN_CLOCK.at }
  const server = await startTarget(entry, { env: { ...env, ...frozenClock }, nodeArgs: [...V8_FLAGS, ...nodeArgs], stdout: file, cwd, wrapper: ['valgrind', ...VALGRIND_ARGS], startTimeoutMs: START_TIMEOUT_MS })
  // vgdb finds the process by a name made of its USER and HOST, as the
  // server saw them (vgdb itself on the real clock).
  const vgdbEnv = { ...process.env, HOST: '127.0.0.1', ...env }
  const callgrind = (command) => runVgdb(server.pid, command, vgdbEnv)
  const client = new SequentialClient(server.url, headers, { conditional, label })
  try {
    await client.send(protocol.warmupRequests)
    await callgrind('instrumentation on')
    // Settled on one representation: when it changes (fixed's minute), the
    // target makes the new one, and the first time, V8 redoes code it had
    // optimized for the old one (measured: fixed-304's window after its
    // first new minute read 1.1 % more): the settling starts again.
    const settle = async () => {
      let before
      do {
        before = client.lastEtag
        await client.send(protocol.settleRequests)
      } while (client.lastEtag !== before)
      return before
    }
    let settledOn = await settle()
    const windows = []
    const firstRequest = []
    while (windows.length < protocol.windows) {
      let window = null
      for (let tries = 0; window === null; tries++) {
        if (tries === WINDOW_TRIES) throw new Error(`${label}: ${WINDOW_TRIES} windows in a row changed representation or status`)
        if (client.lastEtag !== settledOn) settledOn = await settle()
        const first = client.sent + 1
        const representation = client.lastEtag
        await callgrind('zero')
        const seen = await client.send(protocol.windowRequests)
        const counted = parseCallgrindStatus(await callgrind('status internal'))
        window = checkWindow(seen, { conditional, representation }) ? { perRequest: counted / protocol.windowRequests, first } : null
      }
      windows.push(window.perRequest)
      firstRequest.push(window.first)
    }
    return { windows, firstRequest, seconds: (Date.now() - started) / 1000 }
  } finally {
    client.close()
    // Killed, not asked to stop: its shutdown waits on timers, which a
    // frozen clock never fires.
    server.child.kill('SIGKILL')
    await server.stop()
    removeStdoutFile(file)
  }
}

/**
 * What a count depends on, recorded with it (a stored baseline is checked
 * against it): Node, valgrind's version (`valgrind`), V8's flags, what is
 * not counted, and the protocol, slow's part of it from the load's own
 * `warmupRequests` and `requests` (`load`), as the CPU meter measures it.
 */
function describeMeter (valgrind, load) {
  return {
    node: process.version,
    valgrind,
    v8Flags: V8_FLAGS,
    notCounted: [...NOT_COUNTED, `${POLL} but its callbacks`],
    clock: `frozen at ${FROZEN_CLOCK.at} (libfaketime)`,
    protocol: { ...DEFAULTS, leakingWarmupRequests: load.warmupRequests, leakingWindowRequests: Math.max(1, Math.floor(load.requests / DEFAULTS.windows)) }
  }
}

/**
 * Count every target of `targets` (names in `definitions`, bench/protocol/
 * targets.js's and the user's) from every tree of `trees` ({ side: folder
 * }), as many processes at a time as the machine has cores (each is one
 * thread under valgrind). `taxes` ({ target: instructions }) adds that much
 * work to each request of a target on `taxedSide` (the others get the
 * hook, with none). A leaking target (slow) is counted at its own request
 * counts: `protocol.leakingWarmupRequests` requests, then windows of
 * `protocol.leakingWindowRequests`, since its cost grows with each.
 * `onCount({ side, target, windows, seconds })` follows the run. Resolves
 * to { side: { target: { windows, firstRequest, seconds } } }. Targets of
 * several processes cannot be counted (valgrind follows one).
 */
async function countTargets (targets, definitions, { trees, taxes = {}, taxedSide = null, protocol = DEFAULTS, onCount = () => {}, parallel = os.availableParallelism() }) {
  for (const target of targets) {
    if (definitions[target].processTree) throw new MeterUnavailable(`${target} runs as several processes: the instruction meter counts one`)
  }
  const jobs = targets.flatMap((target) => Object.keys(trees).map((side) => ({ target, side })))
  const counts = Object.fromEntries(Object.keys(trees).map((side) => [side, {}]))
  const next = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const { target, side } = job
      const { entry, env = {}, conditional, headers, stdout, leaking } = definitions[target]
      const taxed = taxes[target] !== undefined
      const count = await countInstructions(entry, {
        cwd: trees[side],
        env: taxed ? { ...env, WORK_TAX_INSTRUCTIONS: String(side === taxedSide ? taxes[target] : 0) } : env,
        nodeArgs: taxed ? ['-r', WORK_TAX] : [],
        headers,
        conditional,
        stdout,
        label: `${side}-${target}`,
        protocol: leaking
          ? { warmupRequests: protocol.leakingWarmupRequests, settleRequests: 0, windows: protocol.windows, windowRequests: protocol.leakingWindowRequests }
          : protocol
      })
      counts[side][target] = count
      onCount({ side, target, ...count })
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, jobs.length)) }, next))
  // In the targets' order, whichever finished first.
  return Object.fromEntries(Object.entries(counts).map(([side, byTarget]) => [side, Object.fromEntries(targets.map((t) => [t, byTarget[t]]))]))
}

// One request at a time on one kept-alive connection: the server's work
// per request, with nothing else in flight. Counts what it sent.
// `conditional`: each request carries If-None-Match with the last ETag
// received, as a cache revalidates, so that a new representation (fixed's
// minute) costs one 200 and the 304s go on, in the warm-up too: measured,
// a 304 target warmed up on 200s read 1-2 % more for its first windows.
class SequentialClient {
  constructor (url, headers, { conditional = false, label = 'target' } = {}) {
    this.url = url
    this.label = label
    this.conditional = conditional
    this.headers = { ...headers }
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    this.sent = 0
    // The ETag of the last response.
    this.lastEtag = null
  }

  get () {
    this.sent++
    return new Promise((resolve, reject) => {
      const request = http.get(this.url, { agent: this.agent, headers: this.headers }, (res) => {
        res.resume()
        res.on('end', () => {
          this.lastEtag = res.headers.etag ?? null
          if (this.conditional && this.lastEtag !== null) this.headers['if-none-match'] = this.lastEtag
          resolve({ status: res.statusCode, etag: this.lastEtag })
        })
      }).on('error', reject)
      request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy(new Error(
        `${this.label}: request ${this.sent} got no response within ${REQUEST_TIMEOUT_MS / 1000} s; under the instruction meter ` +
        'the server\'s clock stands still, so a server that answers from a timer never answers')))
    })
  }

  // `count` requests; resolves to what the responses were: { statuses:
  // Set, etags: Set }.
  async send (count) {
    const statuses = new Set()
    const etags = new Set()
    for (let i = 0; i < count; i++) {
      const { status, etag } = await this.get()
      statuses.add(status)
      etags.add(etag)
    }
    return { statuses, etags }
  }

  close () {
    this.agent.destroy()
  }
}

/**
 * Whether a window's responses (`seen`, SequentialClient.send's) were all
 * what the target promises: the `representation` the response before the
 * window had (its ETag, or none), and 304 for a conditional target, 2xx
 * for any other. A representation that changed at the window's first
 * request counts its making in the window: fixed's new minute, one body
 * serialized, read 1.3 % more over 200 requests.
 */
function checkWindow ({ statuses, etags }, { conditional, representation }) {
  if (etags.size !== 1 || !etags.has(representation)) return false
  return [...statuses].every((status) => conditional ? status === 304 : status >= 200 && status < 300)
}

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

module.exports = { countTargets, countInstructions, checkMeter, findLibfaketime, describeMeter, parseCallgrindStatus, checkWindow, MeterUnavailable, V8_FLAGS, NOT_COUNTED, FROZEN_CLOCK, DEFAULTS }
