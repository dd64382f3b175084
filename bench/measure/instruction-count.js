'use strict'

// One target's count, in one process: started under callgrind
// (bench/measure/callgrind.js) on a frozen clock, warmed up, settled, then
// counted window by window by a client that sends one request at a time.
// bench/measure/instructions.js tells the whole run, and why; it schedules
// these counts over the targets and the trees.

const http = require('node:http')
const { startTarget } = require('../../tooling/target-process')
const { stdoutFile, removeStdoutFile } = require('./load')
const { uninstrumented } = require('./uninstrumented')
const { V8_FLAGS, VALGRIND_ARGS, parseCallgrindStatus, runVgdb } = require('./callgrind')
const { findLibfaketime } = require('./instruction-tools')

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
// A request the target does not answer in this long fails the count.
const REQUEST_TIMEOUT_MS = 60000

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

module.exports = { countInstructions, checkWindow, FROZEN_CLOCK, DEFAULTS }
