'use strict'

// Overload protection (OVERLOAD_MAX_DELAY_MS) in a real server process whose
// event loop the test blocks: 503 with Retry-After and restify's JSON error
// while the loop lags, service back on its own once it is free, and settings
// checked at start-up.

const t = require('tap')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { VARIANTS } = require('../../../tooling/repo')
const { exitOf } = require('../../processes')
const { request } = require('../../client')
const { spawnServer } = require('../../../tooling/spawn-server')

const BLOCKER = path.join(__dirname, '..', '..', 'variants', 'fixtures', 'block-event-loop.js')
const BLOCK_MS = 700
const PROTECTION = { OVERLOAD_MAX_DELAY_MS: '50', OVERLOAD_RETRY_AFTER_S: '3' }
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

for (const variant of VARIANTS) {
  t.test(`node ${variant}: 503 while the event loop is blocked, then served again`, async (t) => {
    const server = await spawnServer(variant, { env: PROTECTION, nodeArgs: ['-r', BLOCKER] })
    t.teardown(server.stop)
    t.equal((await request(server.url)).status, 200, 'served before')

    const unblocked = new Promise((resolve) => server.child.once('message', resolve))
    server.child.send({ blockForMs: BLOCK_MS })
    const shed = []
    const loop = { blocked: true }
    unblocked.then(() => { loop.blocked = false })
    while (loop.blocked) {
      const res = await request(server.url)
      if (res.status === 503) shed.push(res)
    }
    t.ok(shed.length > 0, `${shed.length} requests answered 503 while the loop was blocked`)
    const [first] = shed
    t.equal(first.headers['retry-after'], '3', 'with Retry-After from OVERLOAD_RETRY_AFTER_S')
    t.equal(first.headers['content-type'], 'application/json')
    t.same(JSON.parse(first.body), { code: 'ServiceUnavailable', message: 'server overloaded, retry later' },
      "in restify's JSON error shape")

    let status
    const deadline = Date.now() + 3000
    do {
      await sleep(100)
      status = (await request(server.url)).status
    } while (status !== 200 && Date.now() < deadline)
    t.equal(status, 200, 'served again once the loop is free, without a restart')
  })
}

// Shedding ends at a window's end, and the requests waiting then are let in
// together: the work they bring starts at once. A delay starting that early
// must count too (it did not when the delay came from monitorEventLoopDelay,
// whose reset() at each window's start forgot it: under load the server then
// let every burst in and never shed again).
t.test('a lag that starts the moment shedding ends is shed again', async (t) => {
  const server = await spawnServer('fixed', { env: PROTECTION, nodeArgs: ['-r', BLOCKER] })
  t.teardown(server.stop)
  const statuses = []
  let admitted = 0
  const deadline = Date.now() + 15000
  // One request at a time, each asking to block the loop 300 ms when admitted.
  while (admitted < 6 && Date.now() < deadline) {
    const { status } = await request(server.url, { headers: { 'x-block-ms': '300' } })
    statuses.push(status)
    if (status === 200) admitted++
  }
  t.equal(admitted, 6, 'six requests admitted, each blocking the loop 300 ms')
  const sequence = statuses.map((status) => status === 503 ? 'shed' : status).join(' ')
  t.notMatch(sequence, /200 200/, `every 300 ms lag is followed by shedding: ${sequence.replace(/(shed )+/g, 'shed… ')}`)
})

t.test('bad settings stop the server at start-up with a message and exit 2', async (t) => {
  const cases = [
    [{ OVERLOAD_MAX_DELAY_MS: 'fast' }, /OVERLOAD_MAX_DELAY_MS must be a number > 0/],
    [{ OVERLOAD_MAX_DELAY_MS: '0' }, /OVERLOAD_MAX_DELAY_MS must be a number > 0/],
    [{ OVERLOAD_MAX_DELAY_MS: '100', OVERLOAD_RETRY_AFTER_S: '-1' }, /OVERLOAD_RETRY_AFTER_S an integer >= 0/],
    [{ OVERLOAD_MAX_DELAY_MS: '100', OVERLOAD_RETRY_AFTER_S: '1.5' }, /OVERLOAD_RETRY_AFTER_S an integer >= 0/],
    [{ SHUTDOWN_DRAIN_MS: 'soon' }, /SHUTDOWN_DRAIN_MS must be an integer from 0 to 4999/]
  ]
  // Started all at once: each exits at start-up, and nothing here is timed
  // (one after another, each waiting for its node to load restify, they
  // took 11 s of this serial file under a busy machine).
  const runs = await Promise.all(cases.map(async ([env]) => {
    const child = spawn(process.execPath, ['fixed'], {
      cwd: path.join(__dirname, '..', '..', '..'),
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stderr = ''
    let stdout = ''
    child.stderr.on('data', (chunk) => { stderr += chunk })
    child.stdout.on('data', (chunk) => { stdout += chunk })
    return { exit: await exitOf(child), stderr, stdout }
  }))
  for (const [i, [env, message]] of cases.entries()) {
    const { exit, stderr, stdout } = runs[i]
    t.same(exit, { code: 2, signal: null }, `${JSON.stringify(env)}: exit 2`)
    t.match(stderr, message, `${JSON.stringify(env)}: says why`)
    t.notMatch(stdout, /listening/, `${JSON.stringify(env)}: never listened`)
  }
})
