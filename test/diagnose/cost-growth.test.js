'use strict'

// diagnose/cost-growth.js: a leak told from a flat server by the CPU a
// response costs late in a load against early, on the line through the
// load, on made-up marks as the probe takes them (one every 10 responses).

const t = require('tap')
const { judgeCostGrowth, describeCostGrowth, LEAK_GROWTH } = require('../../diagnose/cost-growth')

// Marks for `responses` responses, response i (from 1) costing cost(i) µs.
function marks (responses, cost) {
  const out = [[0, 0]]
  let micros = 0
  for (let i = 1; i <= responses; i++) {
    micros += cost(i)
    if (i % 10 === 0) out.push([i, micros])
  }
  return out
}

// The JIT's warm-up, as fast's first responses paid it here: 2 to 3 ms a
// response for the first ten, a few hundred µs past the fiftieth, fading.
const warmUp = (i) => 3000 * Math.exp(-i / 25)
// slow as on a machine `speed` times as fast at its listeners' work: 45 µs
// of restify's own a response, 20 µs / speed for each listener, one more per
// response.
const leak = (speed) => (i) => 45 + warmUp(i) + i * 20 / speed

t.test('a listener per request is a leak at a quarter, once and four times the speed', async (t) => {
  for (const speed of [0.25, 1, 4]) {
    const growth = judgeCostGrowth(marks(600, leak(speed)))
    t.ok(growth.growth >= 2 * LEAK_GROWTH, `speed ${speed}: twice the line or more (${growth.growth.toFixed(2)} times)`)
    t.ok(growth.leak)
    t.same([growth.early.at, growth.late.at], [41, 591], 'the line read in its first part (the first left out) and its last')
  }
})

t.test('a flat server is no leak, its warm-up and its collections whatever they are', async (t) => {
  // Every 50th response pays for a collection of 5 ms.
  const collections = (i) => i % 50 === 0 ? 5000 : 0
  for (const responses of [600, 5000, 100000]) {
    const growth = judgeCostGrowth(marks(responses, (i) => 45 + warmUp(i) + collections(i)))
    t.equal(growth.leak, false, `${responses} responses: ${growth.growth.toFixed(2)} times`)
  }
})

// fixed under a load of 2 s read 71 µs a response early and 149 µs over
// its last twelfth, where V8's optimizing compiler reached restify's hot
// code (gone with node --no-opt): two windows compared called it a leak.
t.test('a cost paid once, however late in the load, is no leak', async (t) => {
  for (const [from, to] of [[11000, 12000], [5500, 6500], [1000, 2000]]) {
    const growth = judgeCostGrowth(marks(12000, (i) => 71 + (i > from && i <= to ? 78 : 0)))
    t.equal(growth.leak, false, `dearer from ${from} to ${to}: ${growth.growth.toFixed(2)} times`)
  }
})

t.test('a leak that starts halfway through the load is a leak', async (t) => {
  const growth = judgeCostGrowth(marks(600, (i) => 45 + Math.max(0, i - 300) * 20))
  t.equal(growth.leak, true, `${growth.growth.toFixed(2)} times`)
})

// A server that answers in bursts: a mark, taken as the tenth response
// finishes, can come after work already done for up to ten more (the
// load's connections), so one chunk reads too cheap and the next too dear.
t.test('a flat server whose marks fall before or after its work is no leak', async (t) => {
  const cost = 7000
  // Work done for responses not yet finished at each mark: none, but at
  // the early window's third mark, nine.
  const ahead = (responses) => responses === 80 ? 9 : 0
  const bursty = marks(600, () => cost).map(([responses]) => [responses, (responses + ahead(responses)) * cost])
  const growth = judgeCostGrowth(bursty)
  t.equal(growth.early.cpuMicros, cost, 'the line reads what a response costs')
  t.equal(growth.leak, false, `${growth.growth.toFixed(2)} times`)
})

t.test('a slow, flat server is no leak', async (t) => {
  const growth = judgeCostGrowth(marks(600, () => 30000))
  t.equal(growth.leak, false)
  t.equal(growth.growth, 1)
})

t.test('on a coarse CPU clock each part holds ten steps, or nothing is judged', async (t) => {
  // A clock that moves by 15,625 µs, as Windows' does.
  const step = 15625
  const coarse = (cost) => marks(600, cost).map(([responses, micros]) => [responses, Math.floor(micros / step) * step])
  const slow = judgeCostGrowth(coarse(leak(4)), { clockStepMicros: step })
  t.ok(slow.leak, `slow at four times the speed, a leak: ${slow.growth.toFixed(2)} times`)
  const flat = judgeCostGrowth(coarse(() => 2000), { clockStepMicros: step })
  t.equal(flat.leak, false, `a flat server of 2 ms a response: ${flat.growth.toFixed(2)} times`)
  // 600 responses of 40 µs: 24 ms of CPU, under two steps.
  t.match(judgeCostGrowth(coarse(() => 40), { clockStepMicros: step }), {
    measured: false,
    why: 'the server\'s CPU clock moves in steps of 16 ms, and the load used 16 ms of CPU: too little to see a trend'
  })
})

t.test('too few responses, or none, are not judged', async (t) => {
  t.match(judgeCostGrowth(marks(110, leak(1))), { measured: false, why: /only 110 responses, fewer than the 120 it takes/ })
  t.match(judgeCostGrowth(marks(120, leak(1))), { measured: true, early: { at: 16 }, late: { at: 116 } }, '120 responses: judged, in parts of 10, the first left out')
  t.match(judgeCostGrowth([[0, 0]]), { measured: false, why: /no response was seen in the server's own process/ })
})

t.test('the reading in words', async (t) => {
  t.equal(describeCostGrowth(judgeCostGrowth(marks(600, (i) => i * 20))),
    'CPU a response: 810 µs around request 41, 12 ms around request 591 (15 times, on its trend)')
  t.equal(describeCostGrowth(judgeCostGrowth(marks(120000, () => 45))),
    'CPU a response: 45.0 µs around request 7,501, 45.0 µs around request 117,501 (1.0 times, on its trend)')
  t.equal(describeCostGrowth({ measured: false, why: 'no response' }), 'the CPU a response costs was not measured: no response')
})
