'use strict'

// A command's progress while it measures (npm start's runs, bench:compare's
// pairs, verify's speed rounds): one line on a terminal, rewritten in place
// and ticking once a second, so that a long measurement never looks hung.
// Only on a terminal: in a pipe, a file, CI's log or a test's capture, a
// line rewritten with \r is noise, and the output stays what it was.

// Back to the line's start, and erase it.
const CLEAR_LINE = '\r\x1b[K'
const TICK_MS = 1000

// What a command gets where there is no terminal to show progress on.
const NO_PROGRESS = Object.freeze({ show () {}, clear () {}, end () {} })

/**
 * A progress line on `stream`, the command's stderr: stderr, not stdout,
 * because stdout carries the results, which a user redirects to a file or
 * pipes on while still watching the terminal, where stderr stays.
 * show(text) draws `text` with the seconds since the first show, redrawn
 * every `tickMs`; clear() erases it, before the command prints a line
 * (the next show draws it again); end() erases it and stops the clock.
 * Where `stream` is no terminal, or `env.CI` is set, returns NO_PROGRESS,
 * whose methods do nothing.
 */
function terminalProgress (stream, { env = process.env, tickMs = TICK_MS, now = Date.now } = {}) {
  if (!stream?.isTTY || env.CI) return NO_PROGRESS
  let started = null
  let text = null
  let timer = null
  const draw = () => {
    const seconds = Math.floor((now() - started) / 1000)
    stream.write(CLEAR_LINE + fit(`${text} (${seconds} s)`, stream.columns))
  }
  // Erased, and not drawn again by the clock until the next show.
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
        // The clock never keeps a command's process alive.
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

/**
 * A count on `progress`: shows `  0 of TOTAL WHAT measured` at once, and
 * returns step(write), which erases the line, calls write() (the command's
 * own line for the step just measured) and shows the count one higher.
 */
function countOnProgress (progress, total, what) {
  let done = 0
  const show = () => progress.show(`  ${done} of ${total} ${what} measured`)
  show()
  return (write) => {
    progress.clear()
    write()
    done++
    show()
  }
}

// A line wider than the terminal wraps, and \r goes back to the start of
// its last row only: every redraw would leave a row behind.
function fit (line, columns) {
  return columns > 1 && line.length >= columns ? line.slice(0, columns - 1) : line
}

module.exports = { terminalProgress, countOnProgress, NO_PROGRESS }
