'use strict'

// A CPU with another mix of costs, emulated for the tests: hashing, or
// serialization, four times cheaper or dearer against the rest of a request
// (restify, the socket, the kernel). How much of fast/'s extra cost over
// fixed/ is hashing differs from one CPU to another, so where a server lands
// between two others is the CPU's; test/machine-speed.js scales a whole
// machine, this scales one part against the rest.
//
// The copies change their own code in place, inside the function that does
// the work, so a profile still charges the work to that function: each hash
// is fed its input four times over or its first quarter, each serialization
// runs four times or once in four (the other three reuse the last string).
// restify's own serialization of fast/'s body (its JSON formatter) is left as
// it is: a mix moves the variant's code, not the framework's.

const { workshopCopy, hashingCopy } = require('./workshop/copies')

const FACTOR = 4
// Each mix: which work it scales, and by how much.
const MIXES = [
  { name: 'hashing-cheaper', work: 'hashing', factor: 1 / FACTOR },
  { name: 'hashing-dearer', work: 'hashing', factor: FACTOR },
  { name: 'json-cheaper', work: 'json', factor: 1 / FACTOR },
  { name: 'json-dearer', work: 'json', factor: FACTOR }
]

const ONE_LINE_FIX = ['if (attachAfterEvent === true) return', 'if (afterEventAttached === true) return']

/**
 * A copy of slow/ whose hashing or serialization is scaled by `mix`;
 * removed in teardown. Returns its folder.
 */
function slowAtMix (t, mix) {
  return workshopCopy(t, `slow-${mix.name}`, (source) => withMix(source, mix))
}

/**
 * A copy of fast/'s code (slow/ with the one-line fix, as a participant
 * writes it) whose hashing or serialization is scaled by `mix`; removed in
 * teardown. Returns its folder.
 */
function fastAtMix (t, mix) {
  return workshopCopy(t, `fast-${mix.name}`, (source) => withMix(source.replace(...ONE_LINE_FIX), mix))
}

/**
 * The copy that still hashes every body (test/workshop/copies.js) with its
 * hashing or serialization scaled by `mix`; removed in teardown.
 */
function hashingAtMix (t, mix) {
  return hashingCopy(t, `hashing-${mix.name}`, (source) => withMix(source, mix))
}

/**
 * `source` with every hash input (`.update(x)`) or every
 * `JSON.stringify(x)` scaled by `mix`. Throws when the source has none: an
 * emulation that changes nothing would pass for one that works.
 */
function withMix (source, { work, factor }) {
  const call = work === 'hashing' ? '.update(' : 'JSON.stringify('
  if (!source.includes(call)) throw new Error(`withMix: no ${call}…) to scale`)
  const scaled = replaceCalls(source, call, work === 'hashing' ? hashInput(factor) : serialization(factor))
  return scaled + (work === 'json' && factor < 1 ? LAST_JSON : '')
}

// `.update(x)`: x repeated `factor` times, or its first 1 / `factor`; x
// evaluated once, as in the original (it may be a serialization).
function hashInput (factor) {
  return (argument) => factor > 1
    ? `.update(String(${argument}).repeat(${factor}))`
    : `.update(((input) => input.slice(0, Math.ceil(input.length * ${factor})))(String(${argument})))`
}

// `JSON.stringify(x)`: run `factor` times (the last one's string used), or
// once in 1 / `factor` calls, the others reusing the last string.
function serialization (factor) {
  return (argument) => factor > 1
    ? `(${new Array(factor).fill(`JSON.stringify(${argument})`).join(', ')})`
    : `(++emulatedMixCalls % ${Math.round(1 / factor)} !== 1 && emulatedMixLast !== undefined ? emulatedMixLast : (emulatedMixLast = JSON.stringify(${argument})))`
}

const LAST_JSON = `
// One serialization in four, the others reusing its string
// (test/machine-mix.js).
let emulatedMixCalls = 0
let emulatedMixLast
`

// Every `call` + argument + ')' in `source` (parentheses balanced) replaced
// by `replacement(argument)`.
function replaceCalls (source, call, replacement) {
  let out = ''
  let from = 0
  for (let at = source.indexOf(call); at !== -1; at = source.indexOf(call, from)) {
    const open = at + call.length
    let depth = 1
    let end = open
    for (; depth > 0; end++) {
      if (end >= source.length) throw new Error(`replaceCalls: unbalanced ${call}`)
      if (source[end] === '(') depth++
      else if (source[end] === ')') depth--
    }
    out += source.slice(from, at) + replacement(source.slice(open, end - 1))
    from = end
  }
  return out + source.slice(from)
}

module.exports = { MIXES, slowAtMix, fastAtMix, hashingAtMix, withMix }
