'use strict'

// `npm run verify`, the workshop's check of a participant's fix, on the
// three variants and on the wrong fixes people write. Each must pass or
// fail exactly the levels it should, and say why in the line that fails.
// The commands around it: workshop.test.js (speed), workshop-commands.test.js (--watch, workshop new).

const t = require('tap')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { verifyQuietly } = require('./verify-quietly')
const { workshopCopy } = require('./copies')

const verifyLevels = verifyQuietly
const wrongFix = (t, name, edit) => workshopCopy(t, `verify-test-${name}`, edit)

const GUARD = 'if (attachAfterEvent === true) return'

// Eight verify runs, each starting servers: beside `npm run cpu-hog` (a busy
// process per core) the file took 32.6 s, past tap's 30 s a file (AMD EPYC,
// Node 24.21.0, 2026-11-25). A time limit is not what this file checks.
t.setTimeout(120000)

t.test('slow: the contract holds; the leak, the ETag and 304 do not', async (t) => {
  const { code, passed, output } = await verifyLevels('slow', { level: 1 })
  t.equal(code, 1)
  t.same(passed, [true, false, null, null], 'levels 2 and 3 not asked, not run')
  t.match(output, /✗ 'after' listeners: at most one[^\n]*\n\s+sent: 500 GET \/seed\/v1, 10 at a time\n\s+seen: 101 after 100 requests, 501 after 500, [^\n]*: 400 more in 400 requests, one per request/)
  t.match(output, /✗ CPU per request stays flat as requests accumulate\n[^\n]*\n\s+seen: [\d,.]+ µs then [\d,.]+ µs per request \(x\d/)
  t.match(output, /hint: one more listener per request: the guard in etag.js decides whether one is added/)
})

t.test('fast: level 1 holds; the ETag lags one response behind its body', async (t) => {
  const { code, passed, output } = await verifyLevels('fast', { level: 1 })
  t.equal(code, 0, 'level 1 asked for, level 1 holds')
  t.same(passed, [true, true, null, null])
  t.match(output, /✓ 'after' listeners: at most one[^\n]*: 1 after 100 requests, 1 after 500, up to 1 while 10 were in flight/)
  t.match(output, /\ncontract ✓ {3}level 1 ✓ {3}level 2 not asked {3}level 3 not asked\nNext: Level 2: the ETag belongs to the body it comes with \(`--level 2` checks it too\)\n/, 'the levels above 1 are not asked, not failed')
  t.notMatch(output, /✗/, 'nothing reads as a failure')
  const all = await verifyLevels('fast')
  t.equal(all.code, 1, 'all levels asked for: exit 1')
  t.same(all.passed, [true, true, false, false])
  t.match(all.output, /seen: response 4 brought new bytes with the tag the old bytes had \([0-9a-f]{16}…\), response 5 the same bytes with [0-9a-f]{16}…: the ETag lags one response behind its body/)
  t.match(all.output, /✗ the ETag is an entity-tag: "opaque" or W\/"opaque"/)
  const shown = /^contract ✓ .*$/m.exec(readText(path.join(ROOT, 'README.md')))
  t.ok(shown && all.output.includes(`\n${shown[0]}\n`), `the README's summary line for the one-line fix is verify's: ${shown?.[0]}`)
})

t.test('fixed: every level holds', async (t) => {
  const { code, passed, output } = await verifyLevels('fixed')
  t.equal(code, 0, output)
  t.same(passed, [true, true, true, true])
  t.match(output, /contract ✓ {3}level 1 ✓ {3}level 2 ✓ {3}level 3 ✓/)
  t.notMatch(output, /✗/)
})

t.test('a wrong fix: the listener removed, so no ETag is ever sent', async (t) => {
  const folder = wrongFix(t, 'no-listener', (source) => source.replace(/^ {4}attachAfterEvent\(this\)\r?\n/m, ''))
  const { passed, output } = await verifyLevels(folder)
  t.same(passed, [true, true, false, false])
  t.match(output, /✗ every 200 carries an ETag, from the first response on\n[^\n]*\n\s+seen: no ETag on response 1, 2, 3, 4, 5, 6/)
  t.match(output, /Next: Level 2: the ETag belongs to the body it comes with/)
})

t.test('a wrong fix: server.once with the guard as it was, one listener per request in flight', async (t) => {
  const folder = wrongFix(t, 'once', (source) => source.replace("server.on('after'", "server.once('after'"))
  const { passed, output } = await verifyLevels(folder, { level: 1 })
  t.same(passed.slice(0, 2), [true, false], 'level 1 fails, though nothing grows over time')
  const [, early, late, inFlight] = /seen: (\d+) after 100 requests, (\d+) after 500, up to (\d+) while 10 were in flight/.exec(output) ?? []
  t.equal(early, late, `the count does not grow (${early}, ${late})`)
  t.ok(Number(inFlight) >= 2, `but up to ${inFlight} listeners at once`)
  t.match(output, /hint: a listener per request in flight \(server\.once removes it again/)
  t.match(output, /✓ CPU per request stays flat/, 'its CPU per request does not grow: only the listener count shows it')
})

t.test('a wrong fix: the guard fixed, the previous body\'s hash sent quoted', async (t) => {
  const folder = wrongFix(t, 'quoted-lag', (source) => source
    .replace(GUARD, 'if (afterEventAttached === true) return')
    .replace("res.set('Etag', cache[key])", "res.set('Etag', '\"' + cache[key] + '\"')"))
  const { passed, output } = await verifyLevels(folder)
  t.same(passed, [true, true, false, false])
  t.match(output, /✓ the ETag is an entity-tag: "opaque" or W\/"opaque", quotes included: "[0-9a-f]{16}…"/)
  t.match(output, /the ETag lags one response behind its body/)
})

t.test('a server that does not start: the contract fails with its error', async (t) => {
  const folder = wrongFix(t, 'syntax', (source) => source.replace(GUARD, 'if (afterEventAttached === true) return }'))
  const { code, passed, output } = await verifyLevels(folder)
  t.equal(code, 1)
  t.same(passed, [false, false, false, false])
  t.match(output, /✗ test-copy-verify-test-syntax-\d+ starts and listens on PORT\n\s+seen: .*exited \(code 1\) before listening:[\s\S]*SyntaxError/)
})
