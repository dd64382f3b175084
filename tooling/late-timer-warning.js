'use strict'

// autocannon's retimer, when its timer fires late, reschedules with a negative delay, and Node prints a
// TimeoutNegativeWarning the user can do nothing about. The tools drop that one warning, from retimer only.

const RETIMER_FRAME = /[\\/]node_modules[\\/]retimer[\\/]/

function isRetimerLateTimer (warning) {
  if (warning?.name !== 'TimeoutNegativeWarning') return false
  const frames = (warning.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line))
  const caller = frames.find((frame) => !/\(node:|at node:/.test(frame))
  return RETIMER_FRAME.test(caller ?? '')
}

const quieted = new WeakSet()

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
