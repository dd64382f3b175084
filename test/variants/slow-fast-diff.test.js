'use strict'

// slow/ and fast/ are the same code but one line: that diff is the lesson.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')

const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')

// Code lines only: blank lines, whole-line comments and trailing `// ...`
// comments are dropped (none of this code has `//` inside a string).
function codeLines (file) {
  return readText(file).split('\n')
    .map((line) => line.replace(/\s+\/\/ .*$/, '').trimEnd())
    .filter((line) => line.trim() !== '' && !/^\s*(\/\/|\/\*|\*)/.test(line))
}

t.test('slow/ and fast/ hold the same files', async (t) => {
  t.same(fs.readdirSync(path.join(ROOT, 'fast')), fs.readdirSync(path.join(ROOT, 'slow')))
})

t.test('comments aside, slow/ and fast/ differ in exactly the guard line', async (t) => {
  const differences = []
  for (const file of fs.readdirSync(path.join(ROOT, 'slow'))) {
    const slow = codeLines(path.join(ROOT, 'slow', file))
    const fast = codeLines(path.join(ROOT, 'fast', file))
    t.equal(fast.length, slow.length, `${file}: same number of code lines`)
    slow.forEach((line, i) => {
      if (line !== fast[i]) differences.push({ file, slow: line.trim(), fast: (fast[i] || '').trim() })
    })
  }
  t.same(differences, [{
    file: 'etag.js',
    slow: 'if (attachAfterEvent === true) return',
    fast: 'if (afterEventAttached === true) return'
  }])
})

// The diff above ignores comments, so it cannot see a comment copied from
// slow/ that is false for fast/. The headers say which is which.
t.test('each etag.js header says which variant it is', async (t) => {
  const header = (variant) => readText(path.join(ROOT, variant, 'etag.js')).split('\n\n')[1]
  t.match(header('slow'), /as it was/, 'slow: the middleware as it was')
  t.match(header('fast'), /the one-line fix/, 'fast: the one-line fix')
  t.notMatch(header('fast'), /as it was/, 'fast does not claim to be the original')
})
