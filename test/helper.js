'use strict'

// Throwaway servers and a plain HTTP client for the tests. Each test starts
// its own server on port 0 and closes it in teardown.

const fs = require('node:fs')
const http = require('node:http')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')
const { createContentSource } = require('../core/content')
const { createMinuteClock } = require('../core/clock')
const { urlOf } = require('../core/launch')
const { SEED_PATH } = require('../core/seed-contract')
const { spawnServer } = require('../tooling/spawn-server')
const { ROOT, VARIANTS } = require('../tooling/repo')

/**
 * A clock the test moves by hand: `now()` for createMinuteClock, `advance(ms)`.
 */
function drivenClock (start = 1_700_000_000_000) {
  let ms = start
  return { now: () => ms, advance (by) { ms += by } }
}

// tap's runner hooks every process a test starts: @tapjs/processinfo puts
// its module loader in each child's NODE_OPTIONS (through process-on-spawn,
// which tap has loaded in this process already) to credit the child's
// coverage to this test. Without coverage (CI's runs) it only records which
// files each child loaded, and it cost every node child a third of a second
// of CPU and more at start (0.6-0.9 s against 0.45-0.7 s for `node fixed`'s
// require, Node 22 and 24, AMD EPYC), over about 200 children a run. So,
// with coverage off, the children start as a user starts them. (A later tap
// without process-on-spawn: the hook stays, and only the time is lost.)
if (process.env._TAPJS_PROCESSINFO_COVERAGE_ === '0') {
  let onSpawn = null
  try { onSpawn = require('process-on-spawn') } catch {}
  onSpawn?.addListener((child) => {
    const options = (child.env.NODE_OPTIONS ?? '').replace(/"--(?:import|loader)=[^"]*@tapjs[/\\]processinfo[^"]*"|--(?:import|loader)=\S*@tapjs[/\\]processinfo\S*/g, '').trim()
    if (options === '') delete child.env.NODE_OPTIONS
    else child.env.NODE_OPTIONS = options
  })
}

/**
 * Build `variant` in this test's own process, as require('./<variant>')
 * does, with a seeded content source and a driven clock, and listen on a
 * free port. Returns { server, origin, url, source, clock }.
 */
async function startInProcess (t, variant, { seed = 'test', clock = drivenClock() } = {}) {
  const createServer = require(path.join(ROOT, variant))
  const source = createContentSource({ seed })
  const server = createServer({ source, timestamp: createMinuteClock({ now: clock.now }) })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    server.server.closeAllConnections()
    server.close(resolve)
  }))
  const origin = urlOf(server)
  return { server, origin, url: origin + SEED_PATH, source, clock }
}

/**
 * Start `node <variant>` in a child process, as a user would, on a free
 * port, with `env` added. Resolves once it listens: { child, url, origin,
 * output(), stop() }. Stopped in teardown if still up.
 */
async function startChildProcess (t, variant, env = {}) {
  const server = await spawnServer(variant, { env })
  t.teardown(server.stop)
  return server
}

/**
 * Resolve when `child` exits: { code, signal }.
 */
function exitOf (child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

/**
 * One HTTP request: resolves to { status, headers, body } with the body as
 * a string. `agent` false (the default) means a fresh connection.
 */
function request (url, { method = 'GET', headers = {}, agent = false } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => resolve({
        status: res.statusCode,
        headers: res.headers,
        body: Buffer.concat(chunks).toString()
      }))
    })
    req.on('error', reject)
    req.end()
  })
}

/**
 * Send `raw` bytes on a fresh connection to `origin`, then `trickle` every
 * `everyMs` (if given), until the server closes the connection or `waitMs`
 * passed. Resolves to { received (latin1), ms (until the close) }.
 */
function rawExchange (origin, raw, { trickle = null, everyMs = 200, waitMs = 2000 } = {}) {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve) => {
    const started = Date.now()
    let dripping = null
    // The trickle starts once connected, after `raw`: a socket takes writes
    // while it connects, so one started sooner put its bytes before the
    // request line whenever the connection waited (a full listen backlog
    // delays it a second), and the server answered that garbage with 400
    // (hostile-input.test.js failed so, about one run in ten on an AMD EPYC).
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(raw)
      if (trickle) dripping = setInterval(() => { if (socket.writable) socket.write(trickle) }, everyMs)
    })
    let received = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => { received += chunk })
    socket.on('error', () => {})
    const timer = setTimeout(() => socket.destroy(), waitMs)
    socket.on('close', () => {
      clearTimeout(timer)
      clearInterval(dripping)
      resolve({ received, ms: Date.now() - started })
    })
  })
}

/**
 * A writable stand-in for stdout or stderr: write(chunk) collects, text()
 * returns all written so far.
 */
function capture () {
  let text = ''
  return { write (chunk) { text += chunk }, text: () => text }
}

/**
 * The status codes of the responses in `received`, in order.
 */
function statusesOf (received) {
  return [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]))
}

// The process's state letter from /proc/<pid>/stat (R running, S
// sleeping, Z exited but not yet reaped), or 'gone'.
function stateOf (pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
  } catch {
    return 'gone'
  }
}

// Still there and not a zombie (an exited process its new parent has not
// reaped yet burns nothing).
const alive = (pid) => !['gone', 'Z', 'X'].includes(stateOf(pid))

// Resolves to test()'s value once it is truthy or `ms` have passed.
async function waitFor (test, ms) {
  const deadline = Date.now() + ms
  while (!test() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  return test()
}

// The Node line .nvmrc names: CI's main line. Tests of the measuring tools
// (a bench run, the browser's page) run on it only: what they check does not
// depend on the line, and CI's three npm test runs must fit in their time.
// The value is a tap skip option: false on that line, else the reason.
const NVMRC_LINE = fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()
const skipOffNvmrcLine = process.versions.node.split('.')[0] === NVMRC_LINE
  ? false
  : `checked on Node ${NVMRC_LINE} (.nvmrc), not ${process.version}`

/**
 * A text file of the checkout with LF line endings, whatever the checkout
 * has: .gitattributes asks for LF, but an editor or a copy may still bring
 * CRLF, and the tests read lines.
 */
function readText (file) {
  return fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n')
}

// Tap skip options for what one system cannot do (false where it can).
// Windows has no signal a process can handle: kill('SIGTERM') and
// kill('SIGINT') end it outright, so no graceful shutdown runs.
const skipWithoutSignals = process.platform === 'win32'
  ? 'Windows: kill() ends a process outright; no SIGTERM or SIGINT handler runs'
  : false

/**
 * verify on `entry` without the speed comparison, its output collected.
 * Resolves to { code, passed: [contract, level 1, level 2, level 3], output }.
 */
async function verifyQuietly (entry, options = {}) {
  // Required here: most tests that load this file never run verify.
  const { verify } = require('../workshop/verify')
  let output = ''
  const { code, passed } = await verify(entry, { speed: false, print: (text) => { output += text + '\n' }, ...options })
  return { code, passed, output }
}

/**
 * A workshop copy of slow/ in the repo's root (where its requires resolve),
 * named `name` and this process, its etag.js changed by `edit(source)` (which
 * must change it), removed in teardown. Returns the folder.
 */
function workshopCopy (t, name, edit) {
  const { newCopy } = require('../workshop')
  const folder = newCopy(`${name}-${process.pid}`, { gitExclude: false })
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }))
  const file = path.join(folder, 'etag.js')
  const source = fs.readFileSync(file, 'utf8')
  const changed = edit(source)
  t.not(changed, source, `${name}: etag.js changed`)
  fs.writeFileSync(file, changed)
  return folder
}

// A copy of slow/ with the one-line fix (fast/'s guard), as a participant
// makes it; removed in teardown.
function oneLineFixCopy (t, name) {
  return workshopCopy(t, name, (source) => source.replace('if (attachAfterEvent === true) return', 'if (afterEventAttached === true) return'))
}

// NODE_V8_COVERAGE set for this test, as a harness with coverage on sets it
// for every child: the measuring tools must start their servers without it.
// Restored, and its folder removed, when the test ends.
function withCoverageRequested (t, prefix) {
  const coverageDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`))
  const before = process.env.NODE_V8_COVERAGE
  process.env.NODE_V8_COVERAGE = coverageDir
  t.teardown(() => {
    if (before === undefined) delete process.env.NODE_V8_COVERAGE
    else process.env.NODE_V8_COVERAGE = before
    fs.rmSync(coverageDir, { recursive: true, force: true })
  })
  return coverageDir
}

module.exports = { VARIANTS, withCoverageRequested, readText, verifyQuietly, workshopCopy, oneLineFixCopy, skipOffNvmrcLine, skipWithoutSignals, stateOf, alive, waitFor, drivenClock, startInProcess, startChildProcess, exitOf, request, rawExchange, statusesOf, capture }
