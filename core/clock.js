'use strict'

const ONE_MINUTE = 60 * 1000

// A timestamp function (ms) that moves only once a minute; `now` lets tests drive the clock.
function createMinuteClock ({ now = Date.now } = {}) {
  let last = now()
  return function timestamp () {
    const current = now()
    if (current - last >= ONE_MINUTE) last = current
    return last
  }
}

module.exports = { createMinuteClock, ONE_MINUTE }
