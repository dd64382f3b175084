'use strict'

// A regression made to order, for calibrating the benchmark's gate: preloaded
// into a target (`node -r bench/measure/cpu-tax.js`, which the benchmark's --cpu-tax
// option does), it keeps the CPU busy for CPU_TAX_MICROS microseconds at the
// start of every HTTP request the process serves (Node's
// http.server.request.start diagnostics channel), with no change to the
// server's code.

const diagnosticsChannel = require('node:diagnostics_channel')

const micros = Number(process.env.CPU_TAX_MICROS)
if (!(micros > 0)) throw new Error(`CPU_TAX_MICROS must be a number > 0, got ${JSON.stringify(process.env.CPU_TAX_MICROS)}`)
const nanos = BigInt(Math.round(micros * 1000))

diagnosticsChannel.subscribe('http.server.request.start', () => {
  const until = process.hrtime.bigint() + nanos
  while (process.hrtime.bigint() < until) {} // eslint-disable-line no-empty -- the tax is the busy wait
})
