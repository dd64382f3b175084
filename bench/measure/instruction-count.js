'use strict'

// One target's count, in one process: started under callgrind
// (bench/measure/callgrind.js) on a frozen clock, warmed up, settled, then
// counted window by window by a client that sends one request at a time.
// bench/measure/instructions.js tells the whole run, and why; it schedules
// these counts over the targets and the trees.

const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const { startTarget } = require('../../tooling/target-process')
const { stdoutFile, removeStdoutFile } = require('./load')
const { uninstrumented } = require('./uninstrumented')
const { V8_FLAGS, valgrindArgs, countFromDump, runVgdb } = require('./callgrind')
const { findLibfaketime } = require('./instruction-tools')
const { readTextOrNull } = require('../../tooling/text-file')

/**
 * The clock stands still in the counted process: libfaketime, preloaded,
 * answers every read of the wall clock and the monotonic clock with this
 * moment. What the clock drives then never happens while counting: no
 * timer fires (the Date header's once-a-second refresh, the keep-alive
 * timers' list, the server's connection check), the Date header is made
 * once, fixed's representation never turns to a new minute. Measured
 * (docs/instructions.md, "A clock that stands still"): with the clock running,
 * fixed counted more, by several times the gate's allowance, when its
 * requests came 10 ms apart, half of it in timers and half in the next
 * response remaking the Date header; with the clock frozen, well within
 * it. The fake's own clock functions are left out of the count
 * (callgrind.js's CALLS_LEFT_OUT). A target that answers from a timer
 * never answers here (SequentialClient says so).
 */
const FROZEN_CLOCK = { at: '2026-01-01 00:00:00' }
// A request the target does not answer in this long fails the count.
const REQUEST_TIMEOUT_MS = 60000

// The protocol's defaults: 1,000 requests of warm-up and 200 to settle,
// five windows of 100; slow after 200 requests (200 listeners, bench:ci's
// count), in windows of 20. With the allocator and the fake clock out of
// the count, fixed's and fast's windows of 100 after a warm-up of 1,000
// hold within the gate's allowance for thousands of requests, from the
// second window on (the first reads lower, hence the settling). (With the
// allocator counted, the warm-up and the settling had to be several times
// as long: its state moved the count for thousands of requests.) Most of a
// count's time is the start under valgrind.
const DEFAULTS = { warmupRequests: 1000, settleRequests: 200, windows: 5, windowRequests: 100, leakingWarmupRequests: 200, leakingWindowRequests: 20 }

// Under valgrind a server takes up to half a minute to listen (the longest
// with both cores busy): this leaves a margin of about four times that.
const START_TIMEOUT_MS = 120000
// The warm-up's turns, when several kinds of request share a process.
const WARMUP_TURN = 10
// A window whose responses changed representation (fixed's ETag moves once
// a minute) is counted again, this many times at most.
const WINDOW_TRIES = 3

/**
 * Count what one request costs `entry` (a target's entry point, absolute),
 * for each kind of request of `requests` ([{ name, headers, conditional }]:
 * sent `headers`, and for a `conditional` kind If-None-Match with its
 * current ETag, which must then answer 304, else 2xx), each kind from a
 * client of its own: started with `env` and `nodeArgs` (a tax, say) and its
 * stdout as `stdout` names (a target's kind, or none), in `cwd`. Kinds of
 * one server share its process (fixed and fixed-304: a start under
 * valgrind is 16 of a count's 25 s): warmed up in turns, each settled,
 * then counted a window of each in turn. Resolves to { name: { windows:
 * [instructions per request], firstRequest: [the request number each
 * window began at, of that kind], seconds } }.
 */
async function countInstructions (entry, { env = {}, nodeArgs = [], requests, stdout, cwd, label = 'target', protocol = DEFAULTS } = {}) {
  const started = Date.now()
  const counted = await startCounted(entry, { env, nodeArgs, stdout, cwd, label })
  const clients = requests.map(({ name, headers, conditional }) => new SequentialClient(counted.url, headers, { conditional, label: requests.length > 1 ? `${label} ${name}` : label }))
  try {
    // In turns of WARMUP_TURN requests: each kind's path is compiled with
    // what the others' left in the shared code.
    for (let sent = 0; sent < protocol.warmupRequests; sent += WARMUP_TURN) {
      for (const client of clients) await client.send(Math.min(WARMUP_TURN, protocol.warmupRequests - sent))
    }
    await counted.callgrind('instrumentation on')
    for (const client of clients) await settle(client, protocol.settleRequests)
    const counts = clients.map(() => ({ windows: [], firstRequest: [] }))
    for (let w = 0; w < protocol.windows; w++) {
      for (const [i, client] of clients.entries()) {
        const { perRequest, first } = await countWindow(counted, client, protocol)
        counts[i].windows.push(perRequest)
        counts[i].firstRequest.push(first)
      }
    }
    const seconds = (Date.now() - started) / 1000
    return Object.fromEntries(requests.map(({ name }, i) => [name, { ...counts[i], seconds }]))
  } finally {
    for (const client of clients) client.close()
    await counted.stop()
  }
}

/**
 * `entry` started under callgrind, instrumentation off, on the frozen
 * clock (countInstructions says with what). Resolves to { url,
 * callgrind(command): vgdb's answer, untilIdle(), countSinceZero():
 * the instructions counted since the last zero, less what callgrind.js's
 * CALLS_LEFT_OUT leaves out, stop() }.
 */
async function startCounted (entry, { env, nodeArgs, stdout, cwd, label }) {
  const file = stdoutFile(stdout, `instructions-${label}`)
  // NODE_OPTIONS emptied: what the count depends on is V8_FLAGS and the
  // target's own (a test runner's loader, say, would be counted too); and
  // no harness's coverage (uninstrumented.js).
  env = uninstrumented({ ...env, NODE_OPTIONS: '' })
  const frozenClock = { LD_PRELOAD: findLibfaketime(), FAKETIME: FROZEN_CLOCK.at }
  // Where callgrind dumps a window's profile (callgrind.out.1, .2, ...),
  // and where valgrind keeps vgdb's files: removed with them.
  const dumps = fs.mkdtempSync(path.join(os.tmpdir(), 'seed-callgrind-'))
  const cleanUp = () => {
    removeStdoutFile(file)
    fs.rmSync(dumps, { recursive: true, force: true })
  }
  const server = await startTarget(entry, { env: { ...env, ...frozenClock }, nodeArgs: [...V8_FLAGS, ...nodeArgs], stdout: file, cwd, wrapper: ['valgrind', ...valgrindArgs(dumps)], startTimeoutMs: START_TIMEOUT_MS })
    .catch((err) => {
      cleanUp()
      throw err
    })
  // vgdb finds the process by a name made of its USER and HOST, as the
  // server saw them (vgdb itself on the real clock).
  const vgdbEnv = { ...process.env, HOST: '127.0.0.1', ...env }
  const callgrind = (command) => runVgdb(server.pid, command, { dir: dumps, env: vgdbEnv })
  return {
    url: server.url,
    callgrind,
    untilIdle: () => untilIdle(server.pid, label),
    async countSinceZero () {
      await callgrind('dump')
      // callgrind.out itself is where it would write at exit: empty. (vgdb's
      // files end in their host's name, 127.0.0.1.)
      const [dump, ...more] = fs.readdirSync(dumps).filter((name) => /^callgrind\.out\.\d+$/.test(name))
      if (dump === undefined || more.length > 0) throw new Error(`${label}: callgrind dumped ${more.length + (dump ? 1 : 0)} profiles for one window`)
      const text = fs.readFileSync(path.join(dumps, dump), 'utf8')
      fs.rmSync(path.join(dumps, dump))
      return countFromDump(text).instructions
    },
    async stop () {
      // Killed, not asked to stop: its shutdown waits on timers, which a
      // frozen clock never fires.
      server.child.kill('SIGKILL')
      await server.stop()
      cleanUp()
    }
  }
}

/**
 * Send `client` (a SequentialClient) `requests` requests until its
 * representation holds through them. When it changes (fixed's minute), the
 * target makes the new one, and the first time, V8 redoes code it had
 * optimized for the old one (measured: fixed-304's window after its first
 * new minute read more, well past the gate's allowance): the settling
 * starts again. Records the representation settled on as
 * `client.settledOn`.
 */
async function settle (client, requests) {
  let before
  do {
    before = client.lastEtag
    await client.send(requests)
  } while (client.lastEtag !== before)
  client.settledOn = before
}

/**
 * One window of `client`'s requests on `counted` (startCounted's), read
 * once the server is idle before and after: { perRequest, first (the
 * window's first request) }. A window whose responses were not all the
 * representation promised (checkWindow) is counted again, settled anew if
 * it changed, WINDOW_TRIES times at most.
 */
async function countWindow (counted, client, protocol) {
  for (let tries = 0; tries < WINDOW_TRIES; tries++) {
    if (client.lastEtag !== client.settledOn) await settle(client, protocol.settleRequests)
    const first = client.sent + 1
    const representation = client.lastEtag
    await counted.untilIdle()
    await counted.callgrind('zero')
    const seen = await client.send(protocol.windowRequests)
    await counted.untilIdle()
    const instructions = await counted.countSinceZero()
    if (checkWindow(seen, { conditional: client.conditional, representation })) return { perRequest: instructions / protocol.windowRequests, first }
  }
  throw new Error(`${client.label}: ${WINDOW_TRIES} windows in a row changed representation or status`)
}

// The system calls in which a server waits for work (libuv's epoll), by
// architecture: x64's epoll_wait, epoll_pwait and epoll_pwait2, arm64's
// epoll_pwait and epoll_pwait2.
const WAITING_CALLS = { x64: [232, 281, 441], arm64: [22, 441] }[process.arch] ?? []
const IDLE_POLL_MS = 2
const IDLE_TIMEOUT_MS = 60000

/**
 * Resolves once the process `pid` sleeps in its event loop's wait: all the
 * work its last response left queued is done (fast's 'after' listener
 * serializes and hashes the body after sending it). vgdb serves a command
 * once every thread is in a system call: without this, now and then, under
 * load, it caught the server inside the response's write, and the window
 * was read before that work: one of fast's windows read low, one
 * request's hashing short. Read from outside (/proc/PID/syscall and its
 * state), so that nothing is added to the count; Linux only, as valgrind.
 */
async function untilIdle (pid, label) {
  const started = Date.now()
  for (;;) {
    const call = readTextOrNull(`/proc/${pid}/syscall`)
    const state = readTextOrNull(`/proc/${pid}/stat`)
    if (call === null || state === null) throw new Error(`${label}: cannot read /proc/${pid}/syscall, where the meter sees the server wait for work`)
    const number = Number(call.split(' ')[0])
    // The state is the field after the name in parentheses.
    if (WAITING_CALLS.includes(number) && state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) === 'S') return
    if (Date.now() - started > IDLE_TIMEOUT_MS) throw new Error(`${label}: the server did not go back to waiting for requests within ${IDLE_TIMEOUT_MS / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS))
  }
}

// One request at a time on one kept-alive connection: the server's work
// per request, with nothing else in flight. Counts what it sent.
// `conditional`: each request carries If-None-Match with the last ETag
// received, as a cache revalidates, so that a new representation (fixed's
// minute) costs one 200 and the 304s go on, in the warm-up too: measured,
// a 304 target warmed up on 200s read more for its first windows, well
// past the gate's allowance.
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
    // The ETag it settled on before counting (settle()).
    this.settledOn = null
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

module.exports = { countInstructions, checkWindow, FROZEN_CLOCK, DEFAULTS }
