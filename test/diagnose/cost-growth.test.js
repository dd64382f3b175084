'use strict'

// diagnose/cost-growth.js: a leak told from a flat server by the CPU a
// response costs late in a load against early, on made-up marks as the
// probe takes them (one every 10 responses).

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
    t.same([growth.early.from, growth.early.to, growth.late.from, growth.late.to], [51, 100, 551, 600])
  }
})

t.test('a flat server is no leak, its warm-up and its collections whatever they are', async (t) => {
  // Every 50th response pays for a collection of 5 ms.
  const collections = (i) => i % 50 === 0 ? 5000 : 0
  for (const responses of [600, 5000, 100000]) {
    const growth = judgeCostGrowth(marks(responses, (i) => 45 + warmUp(i) + collections(i)))
    t.equal(growth.leak, false, `${responses} responses: ${growth.growth.toFixed(2)} times`)
  }
  // A collection in every late chunk is a cost that grew, though.
  const lateCollections = judgeCostGrowth(marks(600, (i) => 45 + (i > 550 ? 500 : 0)))
  t.equal(lateCollections.leak, true, 'dearer in every late chunk')
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
  t.equal(growth.early.cpuMicros, cost, 'the early window reads what a response costs')
  t.equal(growth.leak, false, `${growth.growth.toFixed(2)} times`)
})

t.test('a slow, flat server is no leak', async (t) => {
  const growth = judgeCostGrowth(marks(600, () => 30000))
  t.equal(growth.leak, false)
  t.equal(growth.growth, 1)
})

t.test('on a coarse CPU clock each window is read whole', async (t) => {
  // A clock that moves by 15,625 µs: a chunk of 10 responses reads 0 or a step.
  const step = 15625
  const coarse = marks(600, leak(4)).map(([responses, micros]) => [responses, Math.floor(micros / step) * step])
  const fine = judgeCostGrowth(coarse)
  t.equal(fine.early.cpuMicros, 0, 'read chunk by chunk, a window can read 0')
  const whole = judgeCostGrowth(coarse, { clockStepMicros: step })
  t.ok(whole.early.cpuMicros > 0 && whole.leak, `read whole: ${whole.growth.toFixed(2)} times`)
})

t.test('too few responses, or none, are not judged', async (t) => {
  t.match(judgeCostGrowth(marks(100, leak(1))), { measured: false, why: /only 100 responses/ })
  t.match(judgeCostGrowth([[0, 0]]), { measured: false, why: /no response was seen in the server's own process/ })
})

t.test('the reading in words', async (t) => {
  t.equal(describeCostGrowth(judgeCostGrowth(marks(600, (i) => i * 20))),
    '1.5 ms of CPU a response over requests 51 to 100, 12 ms over 551 to 600: 7.6 times')
  t.equal(describeCostGrowth(judgeCostGrowth(marks(120000, () => 45))),
    '45.0 µs of CPU a response over requests 10,001 to 20,000, 45.0 µs over 110,001 to 120,000: 1.0 times')
  t.equal(describeCostGrowth({ measured: false, why: 'no response' }), 'the CPU a response costs was not measured: no response')
})
