'use strict'

// A machine faster or slower than this one, emulated for the tests by
// scaling what a CPU's speed scales in slow/ and fast/: the work of each
// 'after' listener (a JSON serialization and a SHA-512 of the body), which
// is what makes slow's turns long. At speed 4 each listener does its work on
// one response in four, at speed 0.25 four times on every response: a
// response at n listeners then costs what it costs on a CPU four times as
// fast, or as slow, at that work. restify's own work per response is left
// as it is, which makes a fast machine harder on a reading that divides
// the late cost by the early one (that fixed share weighs more at speed 4)
// than a real one, which shortens both. docs/node-tools.md, "A faster and a
// slower machine", says why this and not a smaller body (a SHA-512 and a
// serialization keep a fixed cost per call: a body a quarter as long
// costs half as much, not a quarter).

const { workshopCopy, fixedCopy } = require('./workshop/copies')

// The speeds every speed-dependent verdict is held at: a quarter of this
// machine's, its own, four times.
const SPEEDS = [0.25, 1, 4]

const LISTENER = "    server.on('after', (req, res) => {"
const LISTENER_END = '      if (cache[key] !== etag) cache[key] = etag\n    })'

/**
 * slow (or, `oneLineFix`, fast) as on a machine `speed` times as fast: at
 * speed 1 the variant's name, otherwise a copy of slow/ (with the one-line
 * fix: fast/'s code) whose listeners work `speed` times less, removed in
 * teardown; returns its folder.
 */
function atSpeed (t, speed, { oneLineFix = false } = {}) {
  if (speed === 1) return oneLineFix ? 'fast' : 'slow'
  const name = `${oneLineFix ? 'fast' : 'slow'}-at-speed-${String(speed).replace('.', '_')}`
  const scaled = (source) => scaleListener(source, speed)
  if (!oneLineFix) return workshopCopy(t, name, scaled)
  return workshopCopy(t, name, (source) => scaled(source.replace('if (attachAfterEvent === true) return', 'if (afterEventAttached === true) return')))
}

// etag.js with its listener wrapped in one that runs it `speed` times less.
function scaleListener (source, speed) {
  if (!source.includes(LISTENER) || !source.includes(LISTENER_END)) throw new Error('slow/etag.js no longer has the listener this emulation wraps')
  return source
    .replace(LISTENER, `    server.on('after', emulatedSpeed(${speed}, (req, res) => {`)
    .replace(LISTENER_END, LISTENER_END + ')') +
    `
// The listener's work as on a machine ${speed} times as fast
// (test/machine-speed.js).
function emulatedSpeed (speed, listener) {
  if (speed < 1) return (...args) => { for (let i = 0; i < 1 / speed; i++) listener(...args) }
  let calls = 0
  return (...args) => { if (++calls % speed === 0) listener(...args) }
}
`
}

// fixed has no work of its own that a scale could take a share of: a
// response is restify's work and a write, 40 to 80 µs of CPU on this
// project's machines (event-loop's reading). A slower machine is emulated by
// spinning the CPU for (1 / speed - 1) times this much in each response.
// A faster one is not: what a faster machine does to fixed (shorter turns,
// every verdict further from its line) is what the emulated slow and fast
// show already, and fixed's reading of growth is a ratio to itself.
const FIXED_RESPONSE_MICROS = 60

/**
 * fixed as on a machine `speed` (at most 1) times as fast: at speed 1
 * fixed itself, below it a copy of fixed/ whose route spins the CPU first.
 */
function fixedAtSpeed (t, speed) {
  if (speed === 1) return 'fixed'
  if (speed > 1) throw new Error('fixed is emulated on slower machines only')
  const micros = Math.round((1 / speed - 1) * FIXED_RESPONSE_MICROS)
  return spinningFixed(t, `fixed-at-speed-${String(speed).replace('.', '_')}`, micros, `A CPU ${speed} times as fast`)
}

/**
 * A server slow on every machine and flat: a copy of fixed/ whose route
 * holds the event loop for `millis` of CPU time on every response, however
 * fast the CPU (a CPU-bound story such as crypto-slow's pbkdf2Sync is slow
 * only as far as the machine is). CPU time, not wall time: a spin on the
 * wall clock costs CPU in proportion to the share of a core the process
 * gets, which moves under load, so its CPU per response grew within one
 * run (CI, Node 26) and read as a leak.
 */
function fixedHoldingTheLoop (t, millis) {
  return spinningFixed(t, `fixed-holding-the-loop-${millis}-ms`, millis * 1000, `The event loop held ${millis} ms of CPU a response`, 'cpu')
}

// A copy of fixed/ whose route spins for `micros` first, of wall time or
// of the process's CPU time (`clock`).
function spinningFixed (t, name, micros, why, clock = 'wall') {
  const route = '  function serveSeed (req, res, next) {\n'
  const spin = clock === 'cpu'
    ? `function spin (micros) {
  const start = process.cpuUsage()
  for (let used = 0; used < micros;) {
    const { user, system } = process.cpuUsage(start)
    used = user + system
  }
}`
    : `function spin (micros) {
  const until = process.hrtime.bigint() + BigInt(micros * 1000)
  while (process.hrtime.bigint() < until);
}`
  return fixedCopy(t, name, (source) => source.replace(route, `${route}    spin(${micros})\n`) + `
// ${why} (test/machine-speed.js).
${spin}
`)
}

module.exports = { SPEEDS, atSpeed, fixedAtSpeed, fixedHoldingTheLoop }
