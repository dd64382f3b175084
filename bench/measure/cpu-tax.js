'use strict'

// Preloaded with `node -r` (bench's --cpu-tax), it keeps the CPU busy for CPU_TAX_MICROS microseconds at the start of every HTTP request: a regression made to order, for calibrating the gate.

const diagnosticsChannel = require('node:diagnostics_channel')

const micros = Number(process.env.CPU_TAX_MICROS)
if (!(micros > 0)) throw new Error(`CPU_TAX_MICROS must be a number > 0, got ${JSON.stringify(process.env.CPU_TAX_MICROS)}`)
const nanos = BigInt(Math.round(micros * 1000))

diagnosticsChannel.subscribe('http.server.request.start', () => {
  const until = process.hrtime.bigint() + nanos
  while (process.hrtime.bigint() < until) {} // eslint-disable-line no-empty -- the tax is the busy wait
})
