'use strict'

// CPU time as the levels print it: whole µs with separators from a millisecond on, three figures below.

function formatMicros (micros) {
  return micros >= 1000 ? `${Math.round(micros).toLocaleString('en-US')} µs` : `${micros.toPrecision(3)} µs`
}

module.exports = { formatMicros }
