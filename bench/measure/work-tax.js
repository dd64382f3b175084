'use strict'

// Preloaded with `node -r` (--instruction-tax), it runs WORK_TAX_INSTRUCTIONS of computation at the start of every HTTP request. cpu-tax.js's busy wait would not do under valgrind: the slower the process runs, the fewer instructions it spends waiting.

const diagnosticsChannel = require('node:diagnostics_channel')

// One loop step's cost, counted under callgrind on x86-64. `state` outlives each request so that the compiler cannot drop the loop.
const INSTRUCTIONS_PER_STEP = 16.5

const instructions = Number(process.env.WORK_TAX_INSTRUCTIONS)
if (!(instructions >= 0)) throw new Error(`WORK_TAX_INSTRUCTIONS must be a number >= 0, got ${JSON.stringify(process.env.WORK_TAX_INSTRUCTIONS)}`)
const steps = Math.round(instructions / INSTRUCTIONS_PER_STEP)

let state = 1

diagnosticsChannel.subscribe('http.server.request.start', () => {
  let x = state
  for (let i = 0; i < steps; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
  }
  state = x | 1
})

module.exports = { INSTRUCTIONS_PER_STEP }
