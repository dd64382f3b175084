'use strict'

// The parts of the pages made from the code, so that a goal or a protocol
// changes in one place: each sits between `<!-- rendered: ID -->` and
// `<!-- /rendered -->` on its page, and `npm run figures -- --render`
// writes it again from the code (test/docs/rendered.test.js fails while a
// page is behind). docs/figures.md, made whole from docs/figures.json, is
// rendered with them.

const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../tooling/repo')
const { MODES, RATIOS } = require('../bench/judge/goals')
const { readRecords, renderPage, mainLine, PAGE_FILE } = require('./records')

// Every page a block may sit on.
const PAGES = () => ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]

const BLOCK = /(<!-- rendered: ([\w:-]+) -->\n)([^]*?)(<!-- \/rendered -->)/g

// Each block by its ID: a function of the code, without a line's end.
const BLOCKS = Object.fromEntries(Object.entries(MODES)
  .filter(([, rules]) => rules.enforce)
  .map(([mode, rules]) => [`goals:${mode}`, () => goalsTable(rules.goals)]))

// A mode's goals as docs/benchmark.md lists them.
function goalsTable (goals) {
  const rows = Object.entries(goals).map(([name, goal]) => {
    const better = RATIOS.find((ratio) => ratio.name === name).better
    return `| ${name} | ${better === 'higher' ? '≥' : '≤'} ${goal} |`
  })
  return ['| ratio | goal |', '|---|---|', ...rows].join('\n')
}

/**
 * `text` with every block written again; throws on a block whose ID no
 * code renders.
 */
function renderBlocks (text, page = 'the page') {
  return text.replace(BLOCK, (whole, open, id, body, close) => {
    if (!BLOCKS[id]) throw new Error(`${page}: no code renders the block "${id}": give one of ${Object.keys(BLOCKS).join(', ')}`)
    return `${open}${BLOCKS[id]()}\n${close}`
  })
}

/** The IDs of the blocks in `text`, in their order. */
function blocksIn (text) {
  return [...text.matchAll(BLOCK)].map((match) => match[2])
}

/**
 * Write docs/figures.md and every page's blocks again under `root`,
 * measuring nothing; returns the pages that changed (relative paths).
 */
function renderPages ({ root = ROOT, records = readRecords() } = {}) {
  const changed = []
  const write = (page, next) => {
    const file = path.join(root, page)
    if (fs.readFileSync(file, 'utf8') === next) return
    fs.writeFileSync(file, next)
    changed.push(page)
  }
  for (const page of PAGES()) {
    if (!fs.existsSync(path.join(root, page))) continue
    const figuresPage = path.relative(ROOT, PAGE_FILE).split(path.sep).join('/')
    const text = fs.readFileSync(path.join(root, page), 'utf8')
    write(page, page === figuresPage ? renderPage(records, mainLine()) : renderBlocks(text, page))
  }
  return changed
}

module.exports = { BLOCKS, renderBlocks, blocksIn, renderPages, PAGES }
