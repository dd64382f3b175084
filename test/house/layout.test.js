'use strict'

// The direction of the code's dependencies (docs/layout.md): the variants
// and the reference servers stand on core/ only, the stories on core/ and
// fixed/; core/ imports nothing of the project outside itself; the tools
// never reach into a variant or a story. Inside bench/, the rooms stand on
// each other one way: protocol/ at the bottom, measure/ and judge/ on it,
// print/ on judge/, meters/ on those three, the commands on top; printers
// and judges import nothing that measures, and no command imports another
// command's internals.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT, VARIANTS } = require('../../tooling/repo')

const TOOLS = ['bench', 'check', 'diagnose', 'soak', 'workshop', 'tooling', 'figures']

// Every relative require() of each .js file under `dir`, as the file or
// folder it lands in, relative to the root (for example 'core/clock' or
// 'bench/references').
function projectImports (dir) {
  return allImports(dir).filter(({ id }) => id.startsWith('.')).map(({ from, id }) =>
    ({ from, to: path.relative(ROOT, path.resolve(ROOT, path.dirname(from), id)) }))
}

// Every require() of each .js file under `dir`: { from, id } with `from`
// relative to the root and `id` as written.
function allImports (dir) {
  const imports = []
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { recursive: true })) {
    if (!entry.endsWith('.js')) continue
    const file = path.join(ROOT, dir, entry)
    for (const [, id] of fs.readFileSync(file, 'utf8').matchAll(/require\('([^']*)'\)/g)) {
      imports.push({ from: path.relative(ROOT, file), id })
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

// bench/'s rooms. The bench command is bench/index.js and its options;
// every other command is a folder. The shared rooms are what the commands
// stand on, each allowed the rooms listed (and itself, and tooling/).
const BENCH_COMMAND = 'bench (node bench)'
const SHARED_ROOMS = {
  'bench/protocol': [],
  'bench/measure': ['bench/protocol'],
  'bench/judge': ['bench/protocol'],
  'bench/print': ['bench/judge', 'bench/protocol'],
  'bench/meters': ['bench/measure', 'bench/judge', 'bench/print', 'bench/protocol']
}
const COMMAND_ROOMS = [BENCH_COMMAND, 'bench/compare', 'bench/calibrate', 'bench/history', 'bench/report', 'bench/serializer']
// The commands that measure a piece of core/ in their own process rather
// than a server: bench:serializer times the body's serializers, and takes
// the body, its schema and its content from core/ so as to time the real ones.
const CORE_MEASURING_ROOMS = ['bench/serializer']
const MEASURING = ['bench/measure', 'tooling/target-process', 'tooling/spawn-server', 'tooling/cpu-hog']

// The room a file or folder of bench/ is in: 'bench/judge', say, or the
// bench command for bench/index.js and bench/options.js.
function benchRoom (file) {
  const [top, second] = file.split(path.sep)
  if (top !== 'bench') return null
  if (second === undefined || ['index.js', 'index', 'options.js', 'options'].includes(second)) return BENCH_COMMAND
  return `bench/${second.replace(/\.js$/, '')}`
}

t.test("bench/'s rooms stand on each other one way: no arrow back up, no circle", async (t) => {
  const wrong = []
  for (const { from, to } of projectImports('bench').filter(({ from }) => !from.startsWith(path.join('bench', 'references')))) {
    const own = benchRoom(from)
    const target = benchRoom(to)
    if (target === null) {
      if (topFolder(to) === 'core' && CORE_MEASURING_ROOMS.includes(own)) continue
      if (topFolder(to) !== 'tooling') wrong.push(`${from} -> ${to}: outside bench/ and tooling/`)
      continue
    }
    if (target === own) continue
    const allowed = own in SHARED_ROOMS ? SHARED_ROOMS[own] : Object.keys(SHARED_ROOMS)
    if (!allowed.includes(target)) wrong.push(`${from} -> ${to}: ${own} may import ${allowed.join(', ') || 'nothing of bench/ outside itself'}`)
  }
  t.same(wrong, [])
})

t.test('printers and judges import nothing that measures', async (t) => {
  const judgesAndPrinters = [
    ...allImports('bench/judge'),
    ...allImports('bench/print'),
    ...allImports('bench/compare').filter(({ from }) => ['verdict.js', 'print.js'].includes(path.basename(from)))
  ]
  t.ok(judgesAndPrinters.some(({ from }) => from.endsWith('verdict.js')), "bench:compare's verdict is among them")
  const measuring = judgesAndPrinters.filter(({ from, id }) => {
    if (['autocannon', 'node:child_process', 'node:http'].includes(id)) return true
    if (!id.startsWith('.')) return false
    const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(from), id))
    return MEASURING.some((m) => target === m || target.startsWith(m + path.sep))
  })
  t.same(measuring, [])
})

t.test("no command imports another command's internals", async (t) => {
  const wrong = []
  // Inside bench/: a command's room reaches the shared rooms, not another command's.
  for (const { from, to } of projectImports('bench')) {
    const own = benchRoom(from)
    const target = benchRoom(to)
    if (COMMAND_ROOMS.includes(target) && target !== own) wrong.push(`${from} -> ${to}`)
  }
  // From the other tools: bench/'s shared rooms only, and no tool's command.
  for (const tool of ['check', 'diagnose', 'soak', 'workshop', 'tooling', 'figures']) {
    for (const { from, to } of projectImports(tool)) {
      const target = benchRoom(to)
      if (target !== null && !(target in SHARED_ROOMS)) wrong.push(`${from} -> ${to}`)
      if (topFolder(to) !== tool && ['soak', 'diagnose'].includes(topFolder(to))) wrong.push(`${from} -> ${to}`)
    }
  }
  t.same(wrong, [])
})

t.test('tooling/ imports no tool: it is what they stand on', async (t) => {
  const outside = projectImports('tooling').filter(({ to }) => !['tooling', 'core'].includes(topFolder(to)))
  t.same(outside, [])
})
