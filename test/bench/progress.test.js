'use strict'

// bench/print/progress.js, the progress line that npm start, bench:compare
// and verify's speed show while they measure: on a terminal, a line
// rewritten in place, ticking, erased at the end; anywhere else (a pipe, a
// file, CI, a test capturing the output) not one byte, so that what those
// commands print there is what they printed before.

const t = require('tap')
const { terminalProgress, countingOnProgress, NO_PROGRESS } = require('../../bench/print/progress')

const CLEAR_LINE = '\r\x1b[K'
const TICK_MS = 20

// A stand-in for stderr: a terminal `columns` wide when `isTTY`, keeping
// what is written to it.
function fakeStream ({ isTTY, columns = 80 }) {
  return {
    isTTY,
    columns,
    written: [],
    write (chunk) {
      this.written.push(chunk)
      return true
    }
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// A clock the test moves: `advance(ms)`.
function fakeClock () {
  let ms = 1000000
  return { now: () => ms, advance: (by) => { ms += by } }
}

t.test('on a terminal: the line drawn in place, ticking, erased before a printed line and at the end', async (t) => {
  const stream = fakeStream({ isTTY: true })
  const clock = fakeClock()
  const progress = terminalProgress(stream, { env: {}, tickMs: TICK_MS, now: clock.now })
  progress.show('  0 of 4 runs measured')
  t.same(stream.written, [`${CLEAR_LINE}  0 of 4 runs measured (0 s)`], 'drawn at once, from the line\'s start')
  clock.advance(3000)
  await pause(TICK_MS * 3)
  t.ok(stream.written.length > 1, 'redrawn by the clock, with nothing else happening')
  t.equal(stream.written.at(-1), `${CLEAR_LINE}  0 of 4 runs measured (3 s)`, 'the seconds since it began')

  // Erased, and then quiet: the clock draws nothing more.
  const erasedAndQuiet = async (when, quiet) => {
    t.equal(stream.written.at(-1), CLEAR_LINE, `erased ${when}`)
    const written = stream.written.length
    await pause(TICK_MS * 3)
    t.equal(stream.written.length, written, quiet)
  }
  progress.clear()
  await erasedAndQuiet('before the command prints a line', 'not redrawn by the clock once erased')

  clock.advance(2000)
  progress.show('  1 of 4 runs measured')
  t.equal(stream.written.at(-1), `${CLEAR_LINE}  1 of 4 runs measured (5 s)`, 'drawn again with the new text, the seconds counted on')
  progress.end()
  await erasedAndQuiet('at the end', 'the clock stopped')
  t.ok(stream.written.every((chunk) => !chunk.includes('\n')), 'never a new line: the command\'s output stays as it is')
})

t.test('on a narrow terminal: the line cut to fit, or each redraw would leave a row behind', async (t) => {
  const stream = fakeStream({ isTTY: true, columns: 12 })
  const progress = terminalProgress(stream, { env: {}, tickMs: TICK_MS })
  progress.show('  10 of 24 pairs measured')
  progress.end()
  const drawn = stream.written[0].slice(CLEAR_LINE.length)
  t.equal(drawn.length, 11, 'one column short of the width, where the cursor waits')
  t.ok('  10 of 24 pairs measured (0 s)'.startsWith(drawn), `the line's start: "${drawn}"`)
})

t.test('anywhere but a terminal: nothing at all', async (t) => {
  const cases = [
    ['a pipe or a file (no isTTY)', fakeStream({ isTTY: undefined }), {}],
    ['a stream that says it is no terminal', fakeStream({ isTTY: false }), {}],
    ['a terminal under CI', fakeStream({ isTTY: true }), { CI: 'true' }]
  ]
  for (const [what, stream, env] of cases) {
    const progress = terminalProgress(stream, { env, tickMs: TICK_MS })
    t.equal(progress, NO_PROGRESS, `${what}: the progress that does nothing`)
    progress.show('  0 of 4 runs measured')
    await pause(TICK_MS * 3)
    progress.clear()
    progress.end()
    t.same(stream.written, [], `${what}: not a byte written`)
  }
  t.equal(terminalProgress(undefined), NO_PROGRESS, 'no stream at all')
})

t.test('a count on the line: each step erases it, prints the command\'s line, and counts one more', async (t) => {
  const shown = []
  const events = []
  const progress = {
    show: (text) => { shown.push(text); events.push(`show ${text}`) },
    clear: () => events.push('clear'),
    end: () => events.push('end')
  }
  const measured = await countingOnProgress(progress, 3, 'runs', async (step) => {
    step(() => events.push('line 1'))
    step(() => events.push('line 2'))
    return 'the result'
  })
  t.equal(measured, 'the result')
  t.same(shown, ['  0 of 3 runs measured', '  1 of 3 runs measured', '  2 of 3 runs measured'], 'from 0, one more a step')
  t.same(events.slice(1, 4), ['clear', 'line 1', 'show   1 of 3 runs measured'], 'erased before the command\'s line, drawn after it')
  t.equal(events.at(-1), 'end', 'erased when the measuring ends')
  await t.rejects(countingOnProgress(progress, 3, 'runs', async () => { throw new Error('a server did not start') }), /did not start/)
  t.equal(events.at(-1), 'end', 'erased when it fails, too')
})
