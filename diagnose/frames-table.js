'use strict'

// The hottest frames as every diagnosis prints them, this repo's own code marked.

function formatFrames (title, frames) {
  const rows = frames.map((f) =>
    `  ${(f.share * 100).toFixed(1).padStart(5)} %  ${shownName(f)}  ${f.location}${f.own ? '   <- this repo' : ''}${f.from ? `   <- from ${f.from}` : ''}`)
  const notes = frames.some((f) => f.functionName === SHARED_LIB) ? [SHARED_LIB_NOTE] : []
  return [title, ...rows, ...notes].join('\n')
}

// The verdict above the tables: whose code the hottest frame is, and this repo's share of the samples.
function describeHottest ([top], ownShare) {
  const share = (value) => `${(value * 100).toFixed(1)} %`
  if (!top) return 'No frame was sampled.'
  return [`The hottest frame is ${top.own ? '' : 'not '}this repo's code: ${shownName(top)} at ${top.location}.`,
    `  its share of the samples: ${share(top.share)}`,
    `  this repo's code, all of it: ${share(ownShare)}`].join('\n')
}

const SHARED_LIB = '[SHARED_LIB]'
const SHARED_LIB_NOTE = '  [SHARED_LIB]: code in that file that the profiler found no function name for (no symbol for it there, or no `nm` to read them).'

// nm's demangled C++ names carry return type and parameters: a row shows the qualified name alone.
const NATIVE = /^\[(?:cpp|v8|system)\]$/
const MAX_NAME = 100
function shownName ({ functionName, location }) {
  if (!NATIVE.test(location)) return functionName
  const name = qualifiedName(functionName)
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 1)}…` : name
}

// What comes before the parameters' parenthesis (outside any <>, and not `(anonymous namespace)`),
// after the return type; an operator's symbols (`operator<<`, `operator()`) are part of its name.
const OPERATOR = /^operator(?:\(\)|[<>=!+\-*/%&|^~[\],]+| [\w:]+)/
function qualifiedName (signature) {
  let depth = 0
  let start = 0
  for (let i = 0; i < signature.length; i++) {
    const operator = OPERATOR.exec(signature.slice(i))
    if (operator && (i === 0 || /[\s:]/.test(signature[i - 1]))) {
      i += operator[0].length - 1
    } else if (signature[i] === '(' && depth === 0 && !signature.startsWith('(anonymous namespace)', i)) {
      return signature.slice(start, i)
    } else if ('<('.includes(signature[i])) {
      depth++
    } else if ('>)'.includes(signature[i])) {
      depth = Math.max(0, depth - 1)
    } else if (signature[i] === ' ' && depth === 0 && signature[i + 1] !== '<') {
      start = i + 1
    }
  }
  return signature.slice(start)
}

module.exports = { formatFrames, describeHottest }
