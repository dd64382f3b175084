'use strict'

// One target's count, in one process: started under callgrind on a frozen clock, warmed up, settled, then counted window by window by a
// client that sends one request at a time. instructions.js schedules these counts; docs/instructions.md, "The instruction meter", says why.

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

// libfaketime answers every clock read with this moment, so nothing the clock drives runs while counting: no timer fires, the Date header
// is made once, fixed's ETag never turns. A target that answers from a timer never answers here (SequentialClient says so).
const FROZEN_CLOCK = { at: '2026-01-01 00:00:00' }
const REQUEST_TIMEOUT_MS = 60000

// The first window after instrumentation goes on reads low, hence the settling. slow's counts are bench:ci's.
const DEFAULTS = { warmupRequests: 1000, settleRequests: 200, windows: 5, windowRequests: 100, leakingWarmupRequests: 200, leakingWindowRequests: 20 }

// A start under valgrind is slow, slowest with every core busy: this leaves a wide margin.
const START_TIMEOUT_MS = 120000
const WARMUP_TURN = 10
const WINDOW_TRIES = 3

// Counts what one request of each kind of `requests` ([{ name, headers, conditional }]) costs `entry`, each kind from a client of its own.
// Kinds share the process (a start under valgrind is most of a count): warmed up in turns, each settled, then a window of each in turn.
async function countInstructions (entry, { env = {}, nodeArgs = [], requests, stdout, cwd, label = 'target', protocol = DEFAULTS } = {}) {
  const started = Date.now()
  const counted = await startCounted(entry, { env, nodeArgs, stdout, cwd, label })
  const clients = requests.map(({ name, headers, conditional }) => new SequentialClient(counted.url, headers, { conditional, label: requests.length > 1 ? `${label} ${name}` : label }))
  try {
    // In turns, so that each kind's path is compiled with what the others left in the shared code.
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

async function startCounted (entry, { env, nodeArgs, stdout, cwd, label }) {
  const file = stdoutFile(stdout, `instructions-${label}`)
  // NODE_OPTIONS emptied: the count depends on V8_FLAGS and the target's own (a test runner's loader would be counted too).
  env = uninstrumented({ ...env, NODE_OPTIONS: '' })
  const frozenClock = { LD_PRELOAD: findLibfaketime(), FAKETIME: FROZEN_CLOCK.at }
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
  // vgdb finds the process by a name made of its USER and HOST, as the server saw them.
  const vgdbEnv = { ...process.env, HOST: '127.0.0.1', ...env }
  const callgrind = (command) => runVgdb(server.pid, command, { dir: dumps, env: vgdbEnv })
  return {
    url: server.url,
    callgrind,
    untilIdle: () => untilIdle(server.pid, label),
    async countSinceZero () {
      await callgrind('dump')
      const [dump, ...more] = fs.readdirSync(dumps).filter((name) => /^callgrind\.out\.\d+$/.test(name))
      if (dump === undefined || more.length > 0) throw new Error(`${label}: callgrind dumped ${more.length + (dump ? 1 : 0)} profiles for one window`)
      const text = fs.readFileSync(path.join(dumps, dump), 'utf8')
      fs.rmSync(path.join(dumps, dump))
      return countFromDump(text).instructions
    },
    async stop () {
      // Killed, not asked to stop: its shutdown waits on timers, which a frozen clock never fires.
      server.child.kill('SIGKILL')
      await server.stop()
      cleanUp()
    }
  }
}

// Sends `requests` until the representation holds through them: a new one is made, and V8 may redo code optimized for the old, so settling starts again.
async function settle (client, requests) {
  let before
  do {
    before = client.lastEtag
    await client.send(requests)
  } while (client.lastEtag !== before)
  client.settledOn = before
}

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

// The system calls in which a server waits for work (epoll_wait, epoll_pwait, epoll_pwait2), by architecture.
const WAITING_CALLS = { x64: [232, 281, 441], arm64: [22, 441] }[process.arch] ?? []
const IDLE_POLL_MS = 2
const IDLE_TIMEOUT_MS = 60000

// Resolves once `pid` sleeps in its event loop's wait, the work its last response queued done (fast's 'after' listener hashes the body after
// sending it): vgdb would serve a command inside any system call, the response's write included. Read from /proc, so nothing adds to the count.
async function untilIdle (pid, label) {
  const started = Date.now()
  for (;;) {
    const call = readTextOrNull(`/proc/${pid}/syscall`)
    const state = readTextOrNull(`/proc/${pid}/stat`)
    if (call === null || state === null) throw new Error(`${label}: cannot read /proc/${pid}/syscall, where the meter sees the server wait for work`)
    const number = Number(call.split(' ')[0])
    if (WAITING_CALLS.includes(number) && state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) === 'S') return
    if (Date.now() - started > IDLE_TIMEOUT_MS) throw new Error(`${label}: the server did not go back to waiting for requests within ${IDLE_TIMEOUT_MS / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS))
  }
}

// One request at a time on one kept-alive connection. A `conditional` client sends If-None-Match with the last ETag, warm-up included, as a cache revalidates.
class SequentialClient {
  constructor (url, headers, { conditional = false, label = 'target' } = {}) {
    this.url = url
    this.label = label
    this.conditional = conditional
    this.headers = { ...headers }
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    this.sent = 0
    this.lastEtag = null
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

function checkWindow ({ statuses, etags }, { conditional, representation }) {
  if (etags.size !== 1 || !etags.has(representation)) return false
  return [...statuses].every((status) => conditional ? status === 304 : status >= 200 && status < 300)
}

module.exports = { countInstructions, checkWindow, FROZEN_CLOCK, DEFAULTS }
