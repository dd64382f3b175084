'use strict'

// A regression made of work, for calibrating the instruction gate:
// preloaded into a target (`node -r bench/measure/work-tax.js`, which the
// --instruction-tax option does), it runs a fixed amount of computation at
// the start of every HTTP request the process serves (Node's
// http.server.request.start diagnostics channel), with no change to the
// server's code. cpu-tax.js's busy wait would not do under valgrind: it
// waits for the clock, so the slower the process runs the fewer
// instructions it spends. The hook itself costs about 300 instructions a
// request (the channel's message and call): a comparison loads this module
// on both sides, with WORK_TAX_INSTRUCTIONS=0 on the untaxed one, so that
// only the loop's work differs.

const diagnosticsChannel = require('node:diagnostics_channel')

// What one step of the loop below costs once compiled, counted under
// callgrind on x86-64 (the real-run test in test/clinic holds a tax to
// within 10 % of what it asks).
const INSTRUCTIONS_PER_STEP = 16.5

const instructions = Number(process.env.WORK_TAX_INSTRUCTIONS)
if (!(instructions >= 0)) throw new Error(`WORK_TAX_INSTRUCTIONS must be a number >= 0, got ${JSON.stringify(process.env.WORK_TAX_INSTRUCTIONS)}`)
const steps = Math.round(instructions / INSTRUCTIONS_PER_STEP)

// An xorshift generator's state: kept between requests, so the compiler
// cannot drop the loop as work whose result nobody reads.
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
