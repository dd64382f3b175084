'use strict'

// autocannon times each connection out with retimer, whose timer, when it
// fires late (a busy event loop: every tool here shares its machine with the
// server it loads), reschedules itself with a negative delay. Node 24 then
// prints "TimeoutNegativeWarning: -1 is a negative number. Timeout duration
// was set to 1." and does what retimer meant (fires at once): the figures
// are unaffected, and a user can do nothing about it (retimer 4.0.0 has the
// same code). The tools' processes drop that one warning, from retimer only;
// every other warning, a negative delay of ours included, prints as before.

const RETIMER_FRAME = /[\\/]node_modules[\\/]retimer[\\/]/

// The warning's first frame outside Node's own code is the one that called
// setTimeout: retimer's, not a callback that retimer ran.
function isRetimerLateTimer (warning) {
  if (warning?.name !== 'TimeoutNegativeWarning') return false
  const frames = (warning.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line))
  const caller = frames.find((frame) => !/\(node:|at node:/.test(frame))
  return RETIMER_FRAME.test(caller ?? '')
}

const quieted = new WeakSet()

/**
 * Wrap `proc`'s warning printers (Node's own is a 'warning' listener; none
 * with --no-warnings) so that they skip retimer's late-timer warning. Once
 * per process.
 */
function hideRetimerLateTimerWarning (proc = process) {
  if (quieted.has(proc)) return
  quieted.add(proc)
  for (const printer of proc.listeners('warning')) {
    proc.removeListener('warning', printer)
    proc.on('warning', function printUnlessRetimer (warning) {
      if (!isRetimerLateTimer(warning)) return printer.call(this, warning)
    })
  }
}

module.exports = { hideRetimerLateTimerWarning, isRetimerLateTimer }
