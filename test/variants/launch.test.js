'use strict'

// `node <variant>` as a user runs it: listens where told, prints its URL,
// and closes gracefully on SIGINT and SIGTERM.

const t = require('tap')
const net = require('node:net')
const { spawn } = require('node:child_process')
const path = require('node:path')
const { VARIANTS } = require('../../tooling/repo')
const { startChildProcess } = require('../servers')
const { exitOf } = require('../processes')
const { request } = require('../client')
const { skipWithoutSignals } = require('../skips')
const { spawnServer } = require('../../tooling/spawn-server')

// Send the request line and some headers, but hold back the blank line that
// ends them: the server has a request in flight it cannot answer yet.
function startRequest (url) {
  const { hostname, port, pathname } = new URL(url)
  const socket = net.connect(Number(port), hostname)
  let received = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk) => { received += chunk })
  const closed = new Promise((resolve) => socket.on('close', () => resolve(received)))
  socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\n`)
  return { finish: () => socket.write('\r\n'), closed }
}

for (const variant of VARIANTS) {
  for (const signal of ['SIGTERM', 'SIGINT']) {
    t.test(`node ${variant}: ${signal} lets the in-flight response finish, then exits 0`, { skip: skipWithoutSignals }, async (t) => {
      const { child, url } = await startChildProcess(t, variant)
      t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/seed\/v1$/, 'prints the URL it serves')
      t.equal((await request(url)).status, 200)

      const inFlight = startRequest(url)
      await new Promise((resolve) => setTimeout(resolve, 100))
      const started = Date.now()
      child.kill(signal)
      await new Promise((resolve) => setTimeout(resolve, 100))
      inFlight.finish()

      const raw = await inFlight.closed
      const [head, body] = raw.split('\r\n\r\n')
      t.match(head, /^HTTP\/1\.1 200 OK/, 'the in-flight request is answered')
      t.match(head, /\r\nConnection: close/i, 'and told the connection closes')
      t.equal(Buffer.byteLength(body), Number(/content-length: (\d+)/i.exec(head)[1]), 'the whole body arrives')
      t.same(await exitOf(child), { code: 0, signal: null }, 'exits 0')
      t.ok(Date.now() - started < 2000, 'without waiting for keep-alive timeouts')
    })
  }
}

for (const variant of VARIANTS) {
  t.test(`node ${variant} starts and serves without a warning on Node ${process.versions.node}`, async (t) => {
    // --warnings: tap passes --no-warnings to child processes on some Node
    // lines, which would hide exactly what this looks for.
    const server = await spawnServer(variant, { nodeArgs: ['--warnings'] })
    t.teardown(server.stop)
    t.equal((await request(server.url)).status, 200)
    t.notMatch(server.output(), /Warning/, 'no deprecation or other warning printed')
  })
}

t.test('PORT must be a port number', async (t) => {
  const child = spawn(process.execPath, ['fixed'], {
    cwd: path.join(__dirname, '..', '..'),
    env: { ...process.env, PORT: 'eighty' },
    stdio: ['ignore', 'ignore', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  t.same(await exitOf(child), { code: 2, signal: null })
  t.match(stderr, /PORT must be an integer from 0 to 65535/)
})

t.test('SEED makes the content reproducible across processes', async (t) => {
  const a = await startChildProcess(t, 'fixed', { SEED: 'workshop' })
  const b = await startChildProcess(t, 'slow', { SEED: 'workshop' })
  const dataOf = async (url) => JSON.parse((await request(url)).body).data
  t.equal(await dataOf(b.url), await dataOf(a.url))
})
