'use strict'

// `npm run verify`, the workshop's check of a participant's fix, on the
// three variants and on the wrong fixes people write. Each must pass or
// fail exactly the levels it should, and say why in the line that fails.
// The commands around it: serial/workshop/speed.test.js (speed), commands.test.js (--watch, workshop new).

const t = require('tap')
const path = require('node:path')
const { verify } = require('../../workshop/verify')
const { LINE_WIDTH } = require('../../tooling/wrap-text')
const { readmeOutput, unmatchedLine } = require('../readme-output')
const { verifyQuietly, unwrapped } = require('./verify-quietly')
const { workshopCopy, oneLineFixCopy } = require('./copies')

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
  t.match(unwrapped(output), /✗ 'after' listeners: at most one[^\n]*\n\s+sent: 500 GET \/seed\/v1, 10 at a time\n\s+seen: 101 after 100 requests, 501 after 500, [^\n]*: 400 more in 400 requests, one per request/)
  t.match(unwrapped(output), /✗ CPU per request stays flat as requests accumulate\n[^\n]*\n\s+seen: [\d,.]+ µs then [\d,.]+ µs per request \(x\d/)
  t.match(output, /hint: one more listener per request: the guard in etag.js decides whether one is added/)
  t.match(output, /\ncontract ✓ {3}level 1 ✗ {3}level 2 not asked {3}level 3 not asked\nThe leak is still there: level 1 fails\.\nThe hint under each ✗ says where to look\.\n/, 'the verdict first, in a sentence')
})

t.test('fast: level 1 holds; the ETag lags one response behind its body', async (t) => {
  const { code, passed, output } = await verifyLevels('fast', { level: 1 })
  t.equal(code, 0, 'level 1 asked for, level 1 holds')
  t.same(passed, [true, true, null, null])
  t.match(output, /✓ 'after' listeners: at most one, however many requests came and are in flight\n {6}seen: 1 after 100 requests, 1 after 500, up to 1 while 10 were in flight\n/, 'a check too long for a line: what was seen on the next')
  t.match(output, /\ncontract ✓ {3}level 1 ✓ {3}level 2 not asked {3}level 3 not asked\nYour fix holds the leak\. Level 2 is next: `--level 2` checks it too\.\nLevel 2 asks for an ETag that belongs to the body it comes with, quoted, from the first response on\.\nREADME step 7 shows how\.\n/, 'the levels above 1 are not asked, not failed; level 2 said where it is met')
  t.notMatch(output, /✗/, 'nothing reads as a failure')
  const all = await verifyLevels('fast')
  t.equal(all.code, 1, 'all levels asked for: exit 1')
  t.same(all.passed, [true, true, false, false])
  t.match(unwrapped(all.output), /seen: response 4 brought new bytes with the tag the old bytes had \([0-9a-f]{16}…\), response 5 the same bytes with [0-9a-f]{16}…: the ETag lags one response behind its body/)
  t.match(all.output, /✗ the ETag is an entity-tag: "opaque" or W\/"opaque"/)
  t.match(all.output, /\ncontract ✓ {3}level 1 ✓ {3}level 2 ✗ {3}level 3 ✗\nYour fix holds the leak\. Levels 2 and 3 are next\.\nLevel 2 asks /)
  const long = all.output.split('\n').filter((line) => line.length > LINE_WIDTH)
  t.same(long, [], `every line within ${LINE_WIDTH} characters, every check's included`)
})

// A stand-in for the speed's servers (compareSpeed's measureSides): each round's CPU per request near the README's
// run, fast/ twice fixed/'s and yours as fast/, the machine's speed moving all alike. The speed is measured for real
// in serial/workshop/speed.test.js; here, the lines verify prints around its verdict.
function speedAsFast () {
  const micros = { yours: 90, fast: 92, fixed: 41, slow: 6800 }
  let round = 0
  return async (sides) => {
    if (sides.every((side) => !side.leaking)) round++
    const machine = 1 + 0.1 * Math.sin(round * 1.7)
    return Object.fromEntries(sides.map(({ name }) => {
      const own = 1 + 0.02 * Math.sin(round * 2.3 + name.length)
      const cpuMicrosPerRequest = micros[name] * machine * own
      return [name, { cpuMicrosPerRequest, requestsPerSecond: 4e5 / cpuMicrosPerRequest }]
    }))
  }
}

t.test('the one-line fix: README step 6 shows its lines, the verdicts first', async (t) => {
  const copy = oneLineFixCopy(t, 'verify-test-readme')
  let output = ''
  const { code } = await verify(copy, { measureSides: speedAsFast(), print: (text) => { output += text + '\n' } })
  t.equal(code, 1, 'levels 2 and 3 fail')
  const asParticipant = output.replaceAll(path.basename(copy), 'mine')
  const unmatched = unmatchedLine(readmeOutput('6', 'npm run verify'), asParticipant)
  t.equal(unmatched, null, 'README step 6 shows these lines, in this order, by shape')
  if (unmatched !== null) t.comment(asParticipant)
  t.match(asParticipant, /\nmine is about as fast as fast\/\.\n {2}mine costs [\d.]+ times fixed\/'s CPU per request \([\d.]+ to [\d.]+\)\.\n/, 'the speed verdict, then its figures')
})

t.test('fixed: every level holds', async (t) => {
  const { code, passed, output } = await verifyLevels('fixed')
  t.equal(code, 0, output)
  t.same(passed, [true, true, true, true])
  t.match(output, /contract ✓ {3}level 1 ✓ {3}level 2 ✓ {3}level 3 ✓\nEvery level holds: no leak, an ETag that belongs to its body, and 304\.\n/)
  t.notMatch(output, /✗/)
})

t.test('a wrong fix: the listener removed, so no ETag is ever sent', async (t) => {
  const folder = wrongFix(t, 'no-listener', (source) => source.replace(/^ {4}attachAfterEvent\(this\)\r?\n/m, ''))
  const { passed, output } = await verifyLevels(folder)
  t.same(passed, [true, true, false, false])
  t.match(output, /✗ every 200 carries an ETag, from the first response on\n[^\n]*\n\s+seen: no ETag on response 1, 2, 3, 4, 5, 6/)
  t.match(output, /\nYour fix holds the leak\. Levels 2 and 3 are next\.\nLevel 2 asks for an ETag /, 'level 2 said where it is met')
})

t.test('a wrong fix: server.once with the guard as it was, one listener per request in flight', async (t) => {
  const folder = wrongFix(t, 'once', (source) => source.replace("server.on('after'", "server.once('after'"))
  const { passed, output } = await verifyLevels(folder, { level: 1 })
  t.same(passed.slice(0, 2), [true, false], 'level 1 fails, though nothing grows over time')
  t.match(output, /\nThe leak is still there: level 1 fails\.\n/)
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
  t.match(unwrapped(output), /the ETag lags one response behind its body/)
})

t.test('a server that does not start: the contract fails with its error', async (t) => {
  const folder = wrongFix(t, 'syntax', (source) => source.replace(GUARD, 'if (afterEventAttached === true) return }'))
  const { code, passed, output } = await verifyLevels(folder)
  t.equal(code, 1)
  t.same(passed, [false, false, false, false])
  t.match(output, /✗ test-copy-verify-test-syntax-\d+ starts and listens on PORT\n\s+seen: .*exited \(code 1\) before listening:[\s\S]*SyntaxError/)
  t.match(output, /\ntest-copy-verify-test-syntax-\d+ did not start, so no level was checked\.\n$/)
})
