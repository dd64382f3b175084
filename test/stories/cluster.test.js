'use strict'

// The cluster story (stories/cluster): the workers it starts, a worker that
// dies replaced, and a stop that takes every worker with it.

const t = require('tap')
const fs = require('node:fs')
const { childrenOf } = require('../../tooling/target-process')
const { startChildProcess } = require('../servers')
const { exitOf } = require('../processes')
const { request } = require('../client')
const { skipWithoutSignals } = require('../skips')

if (!fs.existsSync(`/proc/${process.pid}/task`)) {
  t.plan(0, 'the workers are found through /proc, on Linux only')
  process.exit()
}

const workersOf = (pid) => childrenOf('/proc', pid)
const isRunning = (pid) => fs.existsSync(`/proc/${pid}`)

async function until (condition, what, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function allServed (url, count) {
  const responses = await Promise.all(Array.from({ length: count }, () => request(url)))
  return responses.every((response) => response.status === 200)
}

t.test('WORKERS workers answer; one that dies is replaced; SIGTERM stops them all, exit 0', { skip: skipWithoutSignals }, async (t) => {
  const server = await startChildProcess(t, 'stories/cluster', { WORKERS: '3' })
  const primary = server.child.pid
  // The server answers once one worker listens; killing that one before the
  // others listen would close the shared port (cluster closes a port no
  // worker listens on).
  await until(() => /cluster: all 3 workers listening/.test(server.output()), 'all three workers listening')
  t.equal(workersOf(primary).length, 3, 'three worker processes')
  t.ok(await allServed(server.url, 30), 'thirty requests answered 200')

  const [victim] = workersOf(primary)
  process.kill(victim, 'SIGKILL')
  await until(() => !workersOf(primary).includes(victim) && workersOf(primary).length === 3, 'a replacement worker')
  t.ok(await allServed(server.url, 30), 'still answering after the replacement')

  const workers = workersOf(primary)
  const exited = exitOf(server.child)
  server.child.kill('SIGTERM')
  t.same(await exited, { code: 0, signal: null }, 'the primary exits 0')
  t.same(workers.filter(isRunning), [], 'and no worker is left')
  t.match(server.output(), /cluster: worker \d+ died \(SIGKILL\), starting another/)
})

t.test('WORKERS must be a whole number of at least 1', async (t) => {
  const { spawnSync } = require('node:child_process')
  const { ROOT } = require('../../tooling/repo')
  const result = spawnSync(process.execPath, ['stories/cluster'], { cwd: ROOT, env: { ...process.env, WORKERS: 'two', PORT: '0' }, encoding: 'utf8', timeout: 10000 })
  t.equal(result.status, 2)
  t.match(result.stderr, /WORKERS must be an integer >= 1, got "two"/)
})
