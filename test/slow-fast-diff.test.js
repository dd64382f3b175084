'use strict'

// slow/ and fast/ are the same code but one line: that diff is the lesson.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')

const { ROOT } = require('../tooling/repo')

// Code lines only: blank lines, whole-line comments and trailing `// ...`
// comments are dropped (none of this code has `//` inside a string).
function codeLines (file) {
  return fs.readFileSync(file, 'utf8').split('\n')
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
