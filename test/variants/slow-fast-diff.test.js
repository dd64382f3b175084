'use strict'

// slow/ and fast/ are the same code but one line: that diff is the lesson.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')

const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')

t.test('slow/ and fast/ hold the same files', async (t) => {
  t.same(fs.readdirSync(path.join(ROOT, 'fast')), fs.readdirSync(path.join(ROOT, 'slow')))
})

// Comments included: `git diff --no-index slow/etag.js fast/etag.js`, the
// README's "the fix", shows the one line and nothing else, and so every
// comment is true of both (a comment about slow's bug says slow/).
t.test('slow/ and fast/ differ in exactly the guard line, comments included', async (t) => {
  const differences = []
  for (const file of fs.readdirSync(path.join(ROOT, 'slow'))) {
    const slow = readText(path.join(ROOT, 'slow', file)).split('\n')
    const fast = readText(path.join(ROOT, 'fast', file)).split('\n')
    t.equal(fast.length, slow.length, `${file}: same number of lines`)
    slow.forEach((line, i) => {
      if (line !== fast[i]) differences.push({ file, line: i + 1, slow: line.trim(), fast: (fast[i] || '').trim() })
    })
  }
  t.same(differences, [{
    file: 'etag.js',
    line: 21,
    slow: 'if (attachAfterEvent === true) return',
    fast: 'if (afterEventAttached === true) return'
  }])
})
