'use strict'

// A benchmark target's CPU time and peak memory come from the server itself
// (tooling/probe.js over IPC), on any platform; /proc, where there is one,
// is a cross-check. --cpu-tax's module adds the CPU it promises. And a
// server a tool started ends when the tool is killed.

const t = require('tap')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { startTarget } = require('../../tooling/target-process')
const { ROOT } = require('../../tooling/repo')
const { request } = require('../client')
const { alive, stateOf, waitFor, exitOf } = require('../processes')

const REQUESTS = 300

// Servers started and loaded one after another, 300 requests taxed 1 ms
// each: beside `npm run cpu-hog` and test:clinic the tax's test alone took
// 23 s, and the file reached tap's 30 s a file (2026-11-25).
t.setTimeout(120000)

// `count` requests one after another; `options` go to each (an agent, say).
async function serve (url, count, options = {}) {
  for (let i = 0; i < count; i++) await request(url, options)
}

t.test('with /proc out of reach, CPU and peak RSS still come from the probe', async (t) => {
  const server = await startTarget('fixed', { procRoot: path.join(__dirname, 'no-such-proc') })
  t.teardown(server.stop)
  const before = await server.usage()
  await serve(server.url, REQUESTS)
  const after = await server.usage()
  t.equal(after.proc, null, 'no /proc figures')
  t.ok(after.cpuMillis > before.cpuMillis, `CPU time grew: ${before.cpuMillis} -> ${after.cpuMillis} ms`)
  t.ok(after.peakRssBytes > 10 * 2 ** 20, `peak RSS ${after.peakRssBytes} bytes`)
})

t.test('where /proc exists, it agrees with the probe', { skip: !fs.existsSync('/proc/self/stat') && 'no /proc here' }, async (t) => {
  const server = await startTarget('fixed')
  t.teardown(server.stop)
  const before = await server.usage()
  await serve(server.url, REQUESTS)
  const after = await server.usage()
  const probe = after.cpuMillis - before.cpuMillis
  const proc = after.proc.cpuMillis - before.proc.cpuMillis
  // /proc counts in clock ticks (10 ms at the usual 100 per second).
  t.ok(Math.abs(probe - proc) <= 20 + 0.05 * probe, `CPU over ${REQUESTS} requests: probe ${probe.toFixed(1)} ms, /proc ${proc.toFixed(1)} ms`)
  const rssGap = Math.abs(after.peakRssBytes - after.proc.peakRssBytes)
  t.ok(rssGap <= 0.05 * after.proc.peakRssBytes, `peak RSS: probe ${after.peakRssBytes}, /proc ${after.proc.peakRssBytes}`)
})

t.test('bench/measure/cpu-tax.js adds its microseconds of CPU to every request', async (t) => {
  const TAX_MICROS = 1000
  // Measured past V8's compiling and on one kept-alive connection, so that a
  // request costs about 100 µs beside the tax's 1,000. After 20 requests, a
  // new connection each, fixed cost 900 µs a request here and 1,496 in a CI
  // run whose machine was busy: that much noise around the tax let a taxed
  // run read only 427 µs more (2026-11-24, Node 22).
  const agent = new http.Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())
  const cost = async (options) => {
    const server = await startTarget('fixed', options)
    t.teardown(server.stop)
    await serve(server.url, 2000, { agent })
    const before = await server.usage()
    await serve(server.url, REQUESTS, { agent })
    const after = await server.usage()
    return (after.cpuMillis - before.cpuMillis) * 1000 / REQUESTS
  }
  const plain = await cost({})
  const taxed = await cost({ nodeArgs: ['-r', path.join(__dirname, '..', '..', 'bench', 'measure', 'cpu-tax.js')], env: { CPU_TAX_MICROS: String(TAX_MICROS) } })
  // The tax busy-waits on the clock; a process descheduled meanwhile burns
  // less, so half of it is the floor, and more than twice would be a bug.
  t.ok(taxed - plain > TAX_MICROS / 2 && taxed - plain < TAX_MICROS * 2,
    `${plain.toFixed(0)} µs/req plain, ${taxed.toFixed(0)} taxed (+${TAX_MICROS} asked)`)
})

t.test('a server ends when the tool that started it is killed with SIGKILL', { skip: process.platform === 'linux' ? false : 'reads /proc' }, async (t) => {
  // The tool also ends when this file's process goes (its stdin closes):
  // tap ends a file at its time limit with SIGALRM, and no teardown runs
  // then; before, the tool and its server were left running.
  const tool = spawn(process.execPath, ['-e', `require(${JSON.stringify(path.join(ROOT, 'tooling', 'spawn-server'))})
    .spawnServer('fixed').then((server) => console.log(server.child.pid))
    process.stdin.on('end', () => process.exit()).resume()`], { stdio: ['pipe', 'pipe', 'inherit'] })
  const pid = await new Promise((resolve) => tool.stdout.once('data', (chunk) => resolve(Number(chunk.toString().trim()))))
  t.teardown(() => { if (alive(pid)) process.kill(pid, 'SIGKILL') })
  t.ok(alive(pid), `the server ${pid} runs`)
  tool.kill('SIGKILL')
  await exitOf(tool)
  t.ok(await waitFor(() => !alive(pid), 10000), `the server ended with its tool (state now: ${stateOf(pid)})`)
})
