'use strict'

// figures/rendered.js: the parts of the pages made from the code are what
// the code makes now, and `npm run figures -- --render` writes them again,
// measuring nothing.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')
const { BLOCKS, renderBlocks, blocksIn, renderPages, PAGES } = require('../../figures/rendered')
const { MODES } = require('../../bench/judge/goals')

const read = (page, root = ROOT) => fs.readFileSync(path.join(root, page), 'utf8')

t.test('every rendered part of a page is what the code makes now', async (t) => {
  for (const page of PAGES()) {
    const text = read(page)
    t.equal(renderBlocks(text, page), text, `${page}: up to date (npm run figures -- --render writes it)`)
  }
})

t.test('every part the code renders is on a page, once', async (t) => {
  const shown = PAGES().flatMap((page) => blocksIn(read(page)))
  t.same([...shown].sort(), Object.keys(BLOCKS).sort())
})

t.test('a goal is written in goals.js only: the page follows it', async (t) => {
  const text = '# Goals\n\n<!-- rendered: goals:ci -->\n| ratio | goal |\n|---|---|\n| cpu slow/fast | ≥ 1 |\n<!-- /rendered -->\n'
  const [[ratio, goal]] = Object.entries(MODES.ci.goals)
  t.equal(renderBlocks(text), `# Goals\n\n<!-- rendered: goals:ci -->\n| ratio | goal |\n|---|---|\n| ${ratio} | ≥ ${goal} |\n<!-- /rendered -->\n`)
  t.throws(() => renderBlocks('<!-- rendered: goals:nowhere -->\n<!-- /rendered -->', 'PAGE.md'), /PAGE\.md: no code renders the block "goals:nowhere"/)
})

t.test('--render writes the stale pages of a clone, and only those', async (t) => {
  const root = t.testdir({ docs: {} })
  for (const page of ['README.md', 'docs/benchmark.md', 'docs/figures.md', 'docs/layout.md']) fs.writeFileSync(path.join(root, page), read(page))
  const stale = read('docs/benchmark.md').replace(/(<!-- rendered: goals:ci -->\n[^]*?\| ≥ )[\d.]+( \|)/, '$10$2')
  fs.writeFileSync(path.join(root, 'docs', 'benchmark.md'), stale)
  fs.writeFileSync(path.join(root, 'docs', 'figures.md'), '# stale\n')
  t.same(renderPages({ root }).sort(), ['docs/benchmark.md', 'docs/figures.md'])
  t.equal(read('docs/benchmark.md', root), read('docs/benchmark.md'))
  t.equal(read('docs/figures.md', root), read('docs/figures.md'))
  t.same(renderPages({ root }), [], 'a second run changes nothing')
})

// The command itself is not run here: it writes the clone's pages.
t.test('npm run figures -- --render takes no other option', async (t) => {
  const run = (...args) => spawnSync(process.execPath, [path.join(ROOT, 'figures'), ...args], { cwd: ROOT, encoding: 'utf8' })
  const mixed = run('--render', '--only', 'bench')
  t.equal(mixed.status, 2)
  t.match(mixed.stderr, /--render measures nothing: give it alone/)
})
