'use strict'

// verify's level 1 on the CPU clock of Windows, which moves in ticks of
// 15.6 ms (test/workshop/fixtures/coarse-cpu-clock.js rounds the server's down to
// them): every verdict verify.test.js holds on a fine clock holds here too,
// and nothing reads as a failure for want of a clock. On every Node line,
// as verify.test.js's: CPU per request grows or stays flat whatever the
// line (slow's about x5, a flat server's under x1.5, against a line at x2:
// workshop/levels/leak.js), and the clock is the preload's.

const t = require('tap')
const path = require('node:path')
const { verifyQuietly, unwrapped } = require('./verify-quietly')
const { workshopCopy } = require('./copies')

t.setTimeout(120 * 1000)

const COARSE_CLOCK = ['-r', path.join(__dirname, 'fixtures', 'coarse-cpu-clock.js')]

const verifyOnCoarseClock = (entry, options = {}) => verifyQuietly(entry, { nodeArgs: COARSE_CLOCK, ...options })
const copyWithEdit = (t, name, edit) => workshopCopy(t, `verify-coarse-${name}`, edit)

const CPU_WINDOWS = /CPU time over requests 51-\d+ and \d+-\d+, the cheapest stretch of at least 12 steps of its CPU clock in each, which moves by 15,625 µs/

// The CPU check's lines of verify's output, both windows' CPU among them:
// what a failed assertion on it prints.
const cpuCheckLines = (output) => /^ {2}. CPU per request stays flat[^\n]*(\n {6}[^\n]*)*/m.exec(output)?.[0] ?? output

t.test('slow: level 1 fails on the listeners and on CPU per request', async (t) => {
  const { code, passed, output } = await verifyOnCoarseClock('slow', { level: 1 })
  t.equal(code, 1)
  t.same(passed, [true, false, null, null])
  t.match(output, /✗ 'after' listeners: at most one/)
  t.match(output, /✗ CPU per request stays flat as requests accumulate\n/, cpuCheckLines(output))
  t.match(unwrapped(output), CPU_WINDOWS)
})

t.test('fast: level 1 holds, CPU per request measured flat', async (t) => {
  const { code, passed, output } = await verifyOnCoarseClock('fast', { level: 1 })
  t.equal(code, 0, output)
  t.same(passed, [true, true, null, null])
  t.match(output, /✓ CPU per request stays flat as requests accumulate\n {6}seen: [\d,.]+ µs then [\d,.]+ µs per request \(x[01]\./, cpuCheckLines(output))
  t.notMatch(output, /✗/)
})

// Levels 2 and 3 do not read the CPU clock: verify.test.js holds them.
t.test('fixed: level 1 holds', async (t) => {
  const { code, passed, output } = await verifyOnCoarseClock('fixed', { level: 1 })
  t.equal(code, 0, output)
  t.same(passed, [true, true, null, null])
  t.match(output, /✓ CPU per request stays flat/, cpuCheckLines(output))
})

t.test('the wrong fixes: the same verdicts as on a fine clock', async (t) => {
  const once = copyWithEdit(t, 'once', (source) => source.replace("server.on('after'", "server.once('after'"))
  const onceRun = await verifyOnCoarseClock(once, { level: 1 })
  t.same(onceRun.passed.slice(0, 2), [true, false], 'server.once: level 1 fails on the listeners in flight')
  t.match(onceRun.output, /✓ CPU per request stays flat/)

  const noListener = copyWithEdit(t, 'no-listener', (source) => source.replace(/^ {4}attachAfterEvent\(this\)\r?\n/m, ''))
  t.same((await verifyOnCoarseClock(noListener, { level: 2 })).passed, [true, true, false, null], 'the listener removed: level 1 holds, level 2 does not')

  const quotedLag = copyWithEdit(t, 'quoted-lag', (source) => source
    .replace('if (attachAfterEvent === true) return', 'if (afterEventAttached === true) return')
    .replace("res.set('Etag', cache[key])", "res.set('Etag', '\"' + cache[key] + '\"')"))
  t.same((await verifyOnCoarseClock(quotedLag, { level: 2 })).passed, [true, true, false, null], 'the guard fixed, the lagging hash quoted: level 2 fails')
})
