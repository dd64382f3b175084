'use strict'

// The logging story (stories/logging): how many writes each server makes per
// request, counted by the kernel (/proc/<pid>/io, syscw: write system calls),
// and that no line is lost when the server stops.

const t = require('tap')
const fs = require('node:fs')
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const { spawnServer } = require('../../tooling/spawn-server')
const { request } = require('../client')
const { SYNCHRONOUS_FILE_FLAGS } = require('../../tooling/synchronous-file')

const REQUESTS = 200
const QUIET_MS = 200
// Windows of REQUESTS requests measured one after another; the one with the
// fewest write calls counts. A window can only gain calls from outside what
// it measures (a GC task's eventfd wake, a write retried on a machine
// starved of CPU or socket memory), never lose the log's own: a server that
// wrote twice per line would show it in every window (docs/tests.md, the
// row of stories/logging.test.js).
const WINDOWS = 3

if (!fs.existsSync(`/proc/${process.pid}/io`)) {
  t.plan(0, 'the kernel counts write calls in /proc/<pid>/io on Linux only')
  process.exit()
}

const writeCalls = (pid) => Number(/^syscw: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))[1])

// Resolve once the write calls of `pid` stood still for QUIET_MS.
async function quiet (pid) {
  for (let last = writeCalls(pid); ;) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS))
    const now = writeCalls(pid)
    if (now === last) return
    last = now
  }
}

// Start `entry` with stdout a file (or a pipe), serve one request and then
// WINDOWS times REQUESTS more on one kept-alive connection, stop it, and
// return the write calls per request of the window with the fewest, the
// lines its stdout received and their mean length in bytes.
async function writesPerRequest (t, entry, { stdout }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'story-logging-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'stdout.log')
  const fd = stdout === 'file' ? fs.openSync(file, 'w') : 'pipe'
  // No drain window on stop: nothing arrives after the last request.
  const server = await spawnServer(entry, { stdout: fd, env: { SHUTDOWN_DRAIN_MS: '0' } })
  if (fd !== 'pipe') fs.closeSync(fd)
  t.teardown(server.stop)
  const agent = new http.Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())

  t.equal((await request(server.url, { agent })).status, 200)
  // The process goes on writing for a moment after it starts listening
  // (thousands of calls for the pino server): wait until that is over.
  let perRequest = Infinity
  for (let window = 0; window < WINDOWS; window++) {
    await quiet(server.child.pid)
    const before = writeCalls(server.child.pid)
    for (let i = 0; i < REQUESTS; i++) await request(server.url, { agent })
    perRequest = Math.min(perRequest, (writeCalls(server.child.pid) - before) / REQUESTS)
  }
  await server.stop()
  const printed = fd === 'pipe' ? server.output() : fs.readFileSync(file, 'utf8')
  const logLines = printed.split('\n').filter((line) => line.includes('"url":"/seed/v1"'))
  return { perRequest, logLines: logLines.length, lineBytes: Buffer.byteLength(logLines.join('\n')) / logLines.length }
}

t.test('slow writes each request\'s line on its own; pino one per 4 KiB of lines; no line is lost', { skip: SYNCHRONOUS_FILE_FLAGS ? false : 'Windows has no O_DSYNC: the story\'s slow disk cannot be made' }, async (t) => {
  // The same server without a log: what answering costs in write calls.
  const { perRequest: answering } = await writesPerRequest(t, 'fixed', { stdout: 'file' })
  const slow = await writesPerRequest(t, 'stories/logging/slow.js', { stdout: 'file' })
  const piped = await writesPerRequest(t, 'stories/logging/slow.js', { stdout: 'pipe' })
  const fixed = await writesPerRequest(t, 'stories/logging/fixed.js', { stdout: 'file' })

  const logWrites = (measured) => measured.perRequest - answering
  t.ok(Math.abs(logWrites(slow) - 1) < 0.05, `slow, into a file: one write per request (${logWrites(slow).toFixed(3)})`)
  t.ok(Math.abs(logWrites(piped) - 1) < 0.05, `slow, into a pipe: still one per request, only not waited for (${logWrites(piped).toFixed(3)})`)
  // pino writes when 4 KiB have gathered, on libuv's thread pool, which then
  // wakes the event loop with one more write call (to an eventfd): two per 4 KiB.
  const logBytes = Math.round(fixed.lineBytes * REQUESTS)
  const buffersWritten = Math.ceil(logBytes / 4096) + 1
  t.ok(logWrites(fixed) * REQUESTS <= 2 * buffersWritten,
    `fixed: ${Math.round(logWrites(fixed) * REQUESTS)} write calls for ${REQUESTS} lines (${logBytes} bytes), at most two per 4 KiB`)
  for (const [name, measured] of Object.entries({ slow, piped, fixed })) {
    t.equal(measured.logLines, WINDOWS * REQUESTS + 1, `${name}: every request's line is in the log after a graceful stop`)
  }
})
