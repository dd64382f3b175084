'use strict'

// The direction of the code's dependencies (docs/layout.md): the variants
// and the reference servers stand on core/ only, the stories on core/ and
// fixed/; core/ imports nothing of the project outside itself; the tools
// never reach into a variant or a story.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT, VARIANTS } = require('../tooling/repo')

const TOOLS = ['bench', 'check', 'diagnose', 'workshop', 'tooling']

// Every relative require() of each .js file under `dir`, as the folder it
// lands in, relative to the root (for example 'core' or 'bench/references').
function projectImports (dir) {
  const imports = []
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { recursive: true })) {
    if (!entry.endsWith('.js')) continue
    const file = path.join(ROOT, dir, entry)
    for (const [, id] of fs.readFileSync(file, 'utf8').matchAll(/require\('(\.{1,2}\/[^']*)'\)/g)) {
      const target = path.relative(ROOT, path.resolve(path.dirname(file), id))
      imports.push({ from: path.relative(ROOT, file), to: target })
    }
  }
  return imports
}

const topFolder = (file) => file.split(path.sep)[0]

t.test('core/ imports nothing of the project outside core/', async (t) => {
  const outside = projectImports('core').filter(({ to }) => topFolder(to) !== 'core')
  t.same(outside, [])
})

t.test('each variant imports core/ and its own folder only', async (t) => {
  for (const variant of VARIANTS) {
    const outside = projectImports(variant).filter(({ to }) => !['core', variant].includes(topFolder(to)))
    t.same(outside, [], variant)
  }
})

t.test('each story builds on core/ and fixed/ (the case study\'s finished server) and its own folder only', async (t) => {
  for (const story of fs.readdirSync(path.join(ROOT, 'stories'))) {
    const folder = path.join('stories', story)
    const outside = projectImports(folder).filter(({ to }) => !['core', 'fixed'].includes(topFolder(to)) && !to.startsWith(folder))
    t.same(outside, [], folder)
  }
})

t.test('the reference servers import core/ only', async (t) => {
  const outside = projectImports('bench/references').filter(({ to }) => topFolder(to) !== 'core')
  t.same(outside, [])
})

t.test('no tool imports a variant or a story: they start one as a user does', async (t) => {
  for (const tool of TOOLS) {
    const intoVariants = projectImports(tool).filter(({ to }) => [...VARIANTS, 'stories'].includes(topFolder(to)))
    t.same(intoVariants, [], tool)
  }
})

t.test('the check itself sees imports (it would catch one)', async (t) => {
  const found = projectImports('fixed').map(({ to }) => to)
  t.ok(found.includes(path.join('core', 'representation.js')) || found.includes(path.join('core', 'representation')),
    `fixed's imports are read: ${found.join(', ')}`)
})
