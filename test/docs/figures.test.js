'use strict'

// The figures' one home (docs/figures.json, from `npm run figures`) and the
// pages that quote them: each quote is the range of .nvmrc's line, and
// docs/figures.md is what the records make. The command's own pieces:
// keeping a value, a range, a rewritten quote.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')
const { QUOTES, SOURCES, figureOf } = require('../../figures/catalogue')
const { readRecords, withValue, rangeOn, quotesOn, renderPage, lineOf, mainLine: readMainLine, PAGE_FILE } = require('../../figures/records')
const nodeLines = require('../../.ci/node-lines.json')

const mainLine = readMainLine()
const records = readRecords()

t.test('every quote of a figure is its range on .nvmrc\'s line, in its page', async (t) => {
  const quotes = quotesOn(records, mainLine)
  t.same(QUOTES.map(({ id }) => id).filter((id) => !quotes.some((quote) => quote.id === id)), [], `every quoted figure measured on Node ${mainLine}`)
  for (const { id, page, text } of quotes) {
    t.ok(fs.readFileSync(path.join(ROOT, page), 'utf8').includes(text), `${page} quotes ${id} as "${text}"`)
  }
})

t.test('docs/figures.md is what docs/figures.json makes', async (t) => {
  t.equal(fs.readFileSync(PAGE_FILE, 'utf8'), renderPage(records, mainLine), 'run npm run figures (or render it) after editing the records')
})

t.test('each record: a known figure, from a tested line, in a named setting, from each source', async (t) => {
  const tested = nodeLines.test.map((release) => Number(release.split('.')[0]))
  for (const [id, entries] of Object.entries(records)) {
    t.ok(figureOf(id), `${id}: a figure of the catalogue`)
    for (const entry of entries) {
      t.ok(tested.includes(lineOf(entry.node)), `${id}: ${entry.node} is a tested line`)
      t.ok(entry.cpu && ['quiet', 'one-core', 'cpu-hog'].includes(entry.condition), `${id}: its CPU and condition (${entry.cpu}, ${entry.condition})`)
    }
  }
  for (const { id } of QUOTES) t.ok(SOURCES[figureOf(id)?.source], `${id}: quoted, and a source gives it`)
  // Numbers are quoted from more than one setting on the main line: a
  // figure a tool prints is given as a range from two conditions or
  // machines.
  // (A quote of another line, set beside the main one's, is held here
  // as it is.)
  for (const quote of quotesOn(records, mainLine).filter((entry) => entry.line === undefined)) {
    const settings = (records[quote.id] ?? []).filter((entry) => lineOf(entry.node) === mainLine)
    const measuredOnce = SOURCES[figureOf(quote.id).source].conditions?.length === 1
    t.ok(measuredOnce || settings.length >= 2, `${quote.id}: quoted from ${settings.length} settings`)
  }
})

t.test('a new value replaces the same setting\'s and keeps the others; a range is per line', async (t) => {
  const setting = { node: 'v26.12.1', cpu: 'CPU A', condition: 'quiet' }
  let kept = withValue({}, 'bench.start.fast/slow', { ...setting, value: 100 })
  kept = withValue(kept, 'bench.start.fast/slow', { ...setting, condition: 'cpu-hog', value: 150 })
  kept = withValue(kept, 'bench.start.fast/slow', { ...setting, value: 120 })
  kept = withValue(kept, 'bench.start.fast/slow', { ...setting, node: 'v24.21.0', value: 300 })
  t.equal(kept['bench.start.fast/slow'].length, 3, 'the same setting replaced, the others kept')
  t.same(rangeOn(kept, 'bench.start.fast/slow', 26), { min: '120', max: '150', count: 2 }, 'the range of line 26')
  t.same(rangeOn(kept, 'bench.start.fast/slow', 24), { min: '300', max: '300', count: 1 }, 'and of 24, apart')
  t.equal(rangeOn(kept, 'bench.start.fast/slow', 22), null, 'none on 22')
  const texts = withValue({}, 'doctor.slow', { ...setting, value: 'Doctor: slow: a' })
  t.same(rangeOn(withValue(texts, 'doctor.slow', { ...setting, cpu: 'CPU B', value: 'Doctor: slow: a' }), 'doctor.slow', 26), { values: ['Doctor: slow: a'] }, 'texts: each once')
})

t.test('npm run figures rewrites a quote that moved where its old text is, and names one it cannot find', async (t) => {
  const { updateQuotes } = require('../../figures')
  const root = t.testdir({ 'PAGE.md': 'fast/slow is 101 to 261 in `npm start`.\n' })
  const before = [{ id: 'bench.start.fast/slow', page: 'PAGE.md', text: '101 to 261 in `npm start`' }]
  const lines = updateQuotes(before, [{ id: 'bench.start.fast/slow', page: 'PAGE.md', text: '150 to 210 in `npm start`' }], root)
  t.equal(fs.readFileSync(path.join(root, 'PAGE.md'), 'utf8'), 'fast/slow is 150 to 210 in `npm start`.\n', 'rewritten')
  t.match(lines[0], /"101 to 261 in `npm start`" is now "150 to 210 in `npm start`"/)
  const missing = updateQuotes([], [{ id: 'flame.slow-top', page: 'PAGE.md', text: '(70 to 80 % of the' }], root)
  t.match(missing[0], /write flame\.slow-top as "\(70 to 80 % of the" \(its old text was not found\)/, 'named, not written')
  // The same figure quoted for two lines in one page: each quote moves its own text.
  fs.writeFileSync(path.join(root, 'PAGE.md'), '| 24 | 86.0 |\n| 26 | 75.4 |\n')
  const twoLines = (of24, of26) => [{ id: 'flame.slow-top', page: 'PAGE.md', line: 24, text: `| 24 | ${of24} |` }, { id: 'flame.slow-top', page: 'PAGE.md', line: 26, text: `| 26 | ${of26} |` }]
  updateQuotes(twoLines('86.0', '75.4'), twoLines('86.0', '71.8 to 77.7'), root)
  t.equal(fs.readFileSync(path.join(root, 'PAGE.md'), 'utf8'), '| 24 | 86.0 |\n| 26 | 71.8 to 77.7 |\n', "26's row rewritten, 24's kept")
})
