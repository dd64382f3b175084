'use strict'

// bench:serializer's measuring: the serializers take turns in short slices
// in one process, so the machine's noise falls on all of them alike.

const { median } = require('../judge/stats')

// Short beside the scheduler's time slice: an interruption spoils one slice, which the median drops.
const SLICE_MS = 0.25
const WARMUP_ROUNDS = 2

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

function callsPerSlice ({ serialize }, body, sliceMs) {
  const wanted = sliceMs * 1e6
  for (let iterations = 1; ; iterations *= 2) {
    const ns = Math.min(...[1, 2, 3].map(() => timeBatch(serialize, body, iterations)))
    if (ns >= wanted / 5) return Math.max(1, Math.round(iterations * wanted / ns))
  }
}

// Summing each output's length and middle character keeps every call live and makes V8
// flatten a concatenated string, a copy a socket or hash would pay: it counts as the serializer's.
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
