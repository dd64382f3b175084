'use strict'

// bench:serializer's measuring: every serializer on every body, in one
// process, interleaved finely so that whatever else the machine does (its
// other processes, the hypervisor's steal, a frequency change) falls on
// all three alike.

const { median } = require('../judge/stats')

// A slice: one serializer's turn, about this long. Short beside the
// scheduler's time slice, so that when another process takes the core it
// interrupts one slice of one serializer, which the round's median then
// leaves out; long enough that reading the clock around it costs nothing
// that shows.
const SLICE_MS = 0.25
// Rounds run and thrown away before the first measured one: enough calls
// for V8's optimizing tiers to have compiled all three serializers.
const WARMUP_ROUNDS = 2

/**
 * Times `serializers` on `bodies` in `rounds` rounds. In a round, for each
 * body, the serializers take turns, a slice each (the same number of calls
 * for all, about SLICE_MS of JSON.stringify's time), in their order then
 * reversed (A B C C B A ...), until each has run about `batchMs`; a
 * round's time per serialization for each is the median over its slices.
 * Returns, per body, { id, label, iterations, runs: [{ target, round, ns
 * }] }, `iterations` the calls each serializer makes in a round.
 */
function measureRounds ({ bodies, serializers, rounds, batchMs }) {
  const sliceMs = Math.min(SLICE_MS, batchMs)
  const slices = Math.max(1, Math.round(batchMs / sliceMs))
  const planned = bodies.map((entry) => ({ ...entry, perSlice: callsPerSlice(serializers[0], entry.body, sliceMs), slices }))
  for (let round = 0; round < WARMUP_ROUNDS; round++) runRound(planned, serializers)
  const runs = planned.map(() => [])
  for (let round = 1; round <= rounds; round++) {
    runRound(planned, serializers).forEach((times, index) => runs[index].push(...times.map((run) => ({ ...run, round }))))
  }
  return planned.map(({ id, label, perSlice }, index) => ({ id, label, iterations: perSlice * slices, runs: runs[index] }))
}

// One round: per body, [{ target, ns }], each serializer's median ns per
// call over its slices.
function runRound (planned, serializers) {
  return planned.map(({ body, perSlice, slices }) => {
    const times = new Map(serializers.map(({ name }) => [name, []]))
    for (let slice = 0; slice < slices; slice++) {
      const order = slice % 2 === 0 ? serializers : [...serializers].reverse()
      for (const { name, serialize } of order) times.get(name).push(timeBatch(serialize, body, perSlice) / perSlice)
    }
    return serializers.map(({ name }) => ({ target: name, ns: median(times.get(name)) }))
  })
}

// How many calls make a slice of about `sliceMs`: the batch is doubled
// from one call until it takes a fifth of that, then scaled. Each size is
// timed three times and the fastest counts: the machine's interruptions
// only ever lengthen a batch, and one that caught a batch of a single call
// would leave a slice of a single call.
function callsPerSlice ({ serialize }, body, sliceMs) {
  const wanted = sliceMs * 1e6
  for (let iterations = 1; ; iterations *= 2) {
    const ns = Math.min(...[1, 2, 3].map(() => timeBatch(serialize, body, iterations)))
    if (ns >= wanted / 5) return Math.max(1, Math.round(iterations * wanted / ns))
  }
}

/**
 * The nanoseconds `iterations` calls of `serialize(body)` take. Each
 * output's length and middle character are summed and the sum checked, so
 * that no call can be left out as dead code, and reading a character makes
 * V8 flatten a string built by concatenation (fast-json-stringify's and
 * the direct string's are ropes until then; JSON.stringify's is flat):
 * whatever takes the bytes next, a socket, Buffer.from or a hash, pays
 * that copy, so it is counted as the serializer's.
 */
function timeBatch (serialize, body, iterations) {
  const expected = checksumOf(serialize(body))
  let sum = 0
  const started = process.hrtime.bigint()
  for (let i = 0; i < iterations; i++) {
    const json = serialize(body)
    sum += json.length + json.charCodeAt(json.length >> 1)
  }
  const ns = Number(process.hrtime.bigint() - started)
  if (sum !== expected * iterations) throw new Error(`a serializer's output changed during a batch (checksum ${sum}, expected ${expected * iterations})`)
  return ns
}

function checksumOf (json) {
  return json.length + json.charCodeAt(json.length >> 1)
}

module.exports = { measureRounds, SLICE_MS, WARMUP_ROUNDS }
