'use strict'

// verify's level 1 on a fine CPU clock, with stand-in servers whose CPU
// time this test writes: the chunks of a window are taken apart in time,
// a late window that reads a leak is read again, and the cheaper kept. A
// dear stretch over the whole first late window (V8 compiling on its
// threads, a busy neighbour: it once made fixed read x2.38 in CI) then
// reads flat, and a real leak, whose every later chunk is dearer, still
// reads as one.

const t = require('tap')
const http = require('node:http')
const { checkLeak, LEAK_PROTOCOL, FLAT_CPU_GROWTH } = require('../../workshop/levels/leak')

// A server whose request n costs costOf(n) µs of CPU; usage() also notes when it was asked.
async function standIn (t, costOf) {
  let served = 0
  let cpuMicros = 0
  const asked = []
  const server = http.createServer((req, res) => {
    cpuMicros += costOf(++served)
    res.end('{}')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const later = (value) => new Promise((resolve) => setImmediate(() => resolve(value)))
  return {
    asked,
    target: {
      url: `http://127.0.0.1:${server.address().port}/seed/v1`,
      cpuClockStepMicros: () => later(1),
      usage: () => { asked.push({ at: performance.now(), served }); return later({ cpuMillis: cpuMicros / 1000 }) },
      sample: () => later({ afterListeners: 1 })
    }
  }
}

const cpuCheck = (checks) => checks.find((check) => check.name === 'CPU per request stays flat as requests accumulate')

t.test('a flat server with every request of its first late window four times dearer reads flat, the late window read twice', async (t) => {
  const { lateFrom, window } = LEAK_PROTOCOL
  const { target } = await standIn(t, (n) => n > lateFrom && n <= lateFrom + window ? 400 : 100)
  const cpu = cpuCheck((await checkLeak(target)).checks)
  t.equal(cpu.pass, true, cpu.seen)
  t.match(cpu.sent, /^those and 50 more requests; .* over requests 51-100 and 451-550, .*\(the late one read twice, as it read a leak\)$/)
  t.match(cpu.seen, /^100 µs then 100 µs per request \(x1\.00; flat is under x2\)/)
})

t.test('a leak, every request dearer than the one before, reads as one when read twice', async (t) => {
  const { target } = await standIn(t, (n) => 10 * n)
  const { checks, leaking } = await checkLeak(target)
  const cpu = cpuCheck(checks)
  t.equal(cpu.pass, false, cpu.seen)
  t.ok(leaking)
  const [, growth] = /\(x([\d.]+);/.exec(cpu.seen)
  t.ok(Number(growth) >= FLAT_CPU_GROWTH, `x${growth}`)
})

t.test("a window's chunks are taken apart in time; a flat window is read once", async (t) => {
  const { target, asked } = await standIn(t, () => 100)
  const cpu = cpuCheck((await checkLeak(target)).checks)
  t.match(cpu.sent, /^the same 500 requests; .* 451-500, each window read as the cheapest of its 5 chunks, taken 50 ms apart$/)
  // usage() is asked before and after each chunk: a gap between one chunk's end and the next one's start.
  const early = asked.filter(({ served }) => served >= 50 && served <= 100)
  const gaps = []
  for (let i = 1; i + 1 < early.length; i += 2) gaps.push(early[i + 1].at - early[i].at)
  t.equal(gaps.length, LEAK_PROTOCOL.chunks - 1)
  t.ok(gaps.every((gap) => gap >= LEAK_PROTOCOL.chunkGapMs - 1), `gaps ${gaps.map((gap) => gap.toFixed(0)).join(', ')} ms`)
})
