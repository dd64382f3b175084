'use strict'

// test/skips.js's skip for a measurement off the main Node line: false on
// that line, a reason a participant can read on any other, and called with
// that reason wherever a test uses it: the function itself, passed uncalled
// as a skip option, is truthy, and would skip the test on every line
// without a word of why.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { MAIN_LINE, skipOffMainLine } = require('../skips')
const { ROOT } = require('../../tooling/repo')

t.test('the main line is the one .nvmrc names', async (t) => {
  t.equal(MAIN_LINE, fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim())
  t.match(MAIN_LINE, /^\d+$/, 'a major version')
})

t.test('no skip on the main line; elsewhere, what is measured and where it is checked', async (t) => {
  t.equal(skipOffMainLine('a speed', `v${MAIN_LINE}.0.0`), false)
  t.equal(skipOffMainLine('a speed', `v${MAIN_LINE}.12.1`), false, 'any release of the line')
  const other = `v${Number(MAIN_LINE) - 2}.21.0`
  t.equal(skipOffMainLine("verify's speed verdict is a measurement", other),
    `verify's speed verdict is a measurement: it is checked on Node ${MAIN_LINE}, the line .nvmrc names, and this is Node ${other}`)
  t.not(skipOffMainLine('a speed', `v${MAIN_LINE}0.1.0`), false, `Node ${MAIN_LINE}0 is another line`)
  t.equal(skipOffMainLine('a speed') === false, process.versions.node.split('.')[0] === MAIN_LINE, 'this process\'s version by default')
})

t.test('every test that uses it calls it, with what it measures', async (t) => {
  const uncalled = []
  let calls = 0
  for (const entry of fs.readdirSync(path.join(ROOT, 'test'), { recursive: true })) {
    if (!entry.endsWith('.js') || entry === 'skips.js' || entry === path.join('house', 'skips.test.js')) continue
    const source = fs.readFileSync(path.join(ROOT, 'test', entry), 'utf8').replace(/const \{[^}]*\} = require\([^)]*\)/g, '')
    for (const match of source.matchAll(/skipOffMainLine(\s*\(\s*(['"`])(?:(?!\2).)+\2\s*\))?/g)) {
      if (match[1]) calls++
      else uncalled.push(`test/${entry}: ${source.slice(match.index, match.index + 40)}`)
    }
  }
  t.ok(calls > 0, `${calls} calls, each with a reason`)
  t.same(uncalled, [])
})
