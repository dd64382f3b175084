'use strict'

// The parts of the pages made from the code, between `<!-- rendered: ID -->`
// and `<!-- /rendered -->`, so that a goal changes in one place; `npm run
// figures -- --render` writes them and docs/figures.md again.

const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../tooling/repo')
const { MODES, RATIOS } = require('../bench/judge/goals')
const { readRecords, renderPage, mainLine, PAGE_FILE } = require('./records')

const PAGES = () => ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]

const BLOCK = /(<!-- rendered: ([\w:-]+) -->\n)([^]*?)(<!-- \/rendered -->)/g

const BLOCKS = Object.fromEntries(Object.entries(MODES)
  .filter(([, rules]) => rules.enforce)
  .map(([mode, rules]) => [`goals:${mode}`, () => goalsTable(rules.goals)]))

function goalsTable (goals) {
  const rows = Object.entries(goals).map(([name, goal]) => {
    const better = RATIOS.find((ratio) => ratio.name === name).better
    return `| ${name} | ${better === 'higher' ? '≥' : '≤'} ${goal} |`
  })
  return ['| ratio | goal |', '|---|---|', ...rows].join('\n')
}

function renderBlocks (text, page = 'the page') {
  return text.replace(BLOCK, (whole, open, id, body, close) => {
    if (!BLOCKS[id]) throw new Error(`${page}: no code renders the block "${id}": give one of ${Object.keys(BLOCKS).join(', ')}`)
    return `${open}${BLOCKS[id]()}\n${close}`
  })
}

function blocksIn (text) {
  return [...text.matchAll(BLOCK)].map((match) => match[2])
}

// Returns the pages that changed, relative to `root`.
function renderPages ({ root = ROOT, records = readRecords() } = {}) {
  const figuresPage = path.relative(ROOT, PAGE_FILE).split(path.sep).join('/')
  const changed = []
  for (const page of PAGES()) {
    const file = path.join(root, page)
    if (!fs.existsSync(file)) continue
    const text = fs.readFileSync(file, 'utf8')
    const next = page === figuresPage ? renderPage(records, mainLine()) : renderBlocks(text, page)
    if (next === text) continue
    fs.writeFileSync(file, next)
    changed.push(page)
  }
  return changed
}

module.exports = { BLOCKS, renderBlocks, blocksIn, renderPages, PAGES }
