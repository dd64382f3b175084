'use strict'

// A command's progress while it measures: one line on a terminal, redrawn each second so a long
// measurement never looks hung. In a pipe, a file or CI's log a line rewritten with \r is noise,
// so nothing is written there.

const CLEAR_LINE = '\r\x1b[K'
const TICK_MS = 1000

const NO_PROGRESS = Object.freeze({ show () {}, clear () {}, end () {} })

// On stderr: stdout carries the results, which a user may redirect while watching the terminal.
function terminalProgress (stream, { env = process.env, tickMs = TICK_MS, now = Date.now } = {}) {
  if (!stream?.isTTY || env.CI) return NO_PROGRESS
  let started = null
  let text = null
  let timer = null
  const draw = () => {
    const seconds = Math.floor((now() - started) / 1000)
    stream.write(CLEAR_LINE + fit(`${text} (${seconds} s)`, stream.columns))
  }
  const erase = () => {
    if (text !== null) stream.write(CLEAR_LINE)
    text = null
  }
  return {
    show (next) {
      if (next === text) return
      started ??= now()
      text = next
      draw()
      if (timer === null) {
        timer = setInterval(() => { if (text !== null) draw() }, tickMs)
        timer.unref()
      }
    },
    clear: erase,
    end () {
      clearInterval(timer)
      timer = null
      erase()
    }
  }
}

// `measure(step)` with `progress` counting to `total`: step(write) erases the line, writes, counts one;
// the line is erased when the measuring ends, however it ends.
async function countingOnProgress (progress, total, what, measure) {
  let done = 0
  const show = () => progress.show(`  ${done} of ${total} ${what} measured`)
  show()
  try {
    return await measure((write) => {
      progress.clear()
      write()
      done++
      show()
    })
  } finally {
    progress.end()
  }
}

// A wrapped line would leave a row behind on each redraw: \r returns only to its last row.
function fit (line, columns) {
  return columns > 1 && line.length >= columns ? line.slice(0, columns - 1) : line
}

module.exports = { terminalProgress, countingOnProgress, NO_PROGRESS }
