'use strict'

// verify's level 1 on a coarse CPU clock (Windows' 15.6 ms ticks) with a
// server so costly that fewer requests than a window fill its early one
// (slow under Windows' node.exe on Wine: 6 ms a request at 30 listeners,
// more with each). The late window must still start at request 451, as on
// a fine clock: started earlier, it reads a leaking server at fewer
// listeners and misses its growth (x2.42 under the line then at x3, on Wine, before
// the fix). A stand-in server whose CPU clock this test drives: every
// request costs 15 ms, read through a clock that moves by 15,625 µs, so
// that requests 51-90 fill the early window (three times 12 steps).

const t = require('tap')
const http = require('node:http')
const { checkLeak } = require('../../workshop/levels/leak')

const STEP_MICROS = 15625
const COST_MICROS = 15000

t.test('a costly server on a coarse clock: the late window starts at request 451', async (t) => {
  let served = 0
  const server = http.createServer((req, res) => {
    served++
    res.end('{}')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address()
  // What checkLeak asks of a server tooling/target-process.js started; each
  // answer a turn of the event loop later, as over IPC.
  const later = (value) => new Promise((resolve) => setImmediate(() => resolve(value)))
  const target = {
    url: `http://127.0.0.1:${port}/seed/v1`,
    cpuClockStepMicros: () => later(STEP_MICROS),
    usage: () => later({ cpuMillis: Math.floor(served * COST_MICROS / STEP_MICROS) * STEP_MICROS / 1000 }),
    sample: () => later({ afterListeners: 1 })
  }
  const { checks } = await checkLeak(target)
  const cpu = checks.find((check) => check.name === 'CPU per request stays flat as requests accumulate')
  t.match(cpu.sent, /over requests 51-90 and 451-\d+, the cheapest stretch of at least 12 steps of its CPU clock in each, which moves by 15,625 µs/)
  t.equal(cpu.pass, true, 'a flat cost reads flat')
})
