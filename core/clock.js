'use strict'

const ONE_MINUTE = 60 * 1000

/**
 * Create the case study's timestamp: a function returning a time in ms that
 * only moves once a minute (it keeps its last value until 60 s have passed).
 * `now` lets tests drive the clock.
 */
function createMinuteClock ({ now = Date.now } = {}) {
  let last = now()
  return function timestamp () {
    const current = now()
    if (current - last >= ONE_MINUTE) last = current
    return last
  }
}

module.exports = { createMinuteClock, ONE_MINUTE }
