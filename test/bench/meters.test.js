'use strict'

// A meter is one thing (bench/meters/): each is a module holding its
// defaults, how it counts, judges and prints, and how bench:calibrate reads
// its gates; the commands hold the module --meter picks and call it, and
// none of them asks which meter it holds.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')
const { METERS, NAMES, parseMeter } = require('../../bench/meters')

// The commands' own files: node bench's, bench:compare's, bench:calibrate's.
function commandFiles () {
  const folder = (dir) => fs.readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f))
  return ['bench/index.js', 'bench/options.js', ...folder('bench/compare'), ...folder('bench/calibrate')]
}

// A file's code without its comments.
const codeOf = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1')

t.test('no command branches on the meter\'s name, keeps a flag of it, or counts by itself', async (t) => {
  const names = NAMES.map((name) => `'${name}'|"${name}"`).join('|')
  const found = []
  for (const file of commandFiles()) {
    const code = codeOf(file)
    for (const [what, pattern] of [['a meter\'s name', new RegExp(names, 'g')], ['a counting flag', /\bcounting\b/g], ['its own count', /\bcountTargets\b|\bjudgeInstructions\b/g]]) {
      for (const match of code.matchAll(pattern)) found.push(`${file}: ${what} (${match[0]})`)
    }
  }
  t.same(found, [])
})

t.test('--meter NAME is the meter\'s module; every meter holds the same parts', async (t) => {
  t.equal(parseMeter('instructions'), METERS.instructions)
  t.equal(parseMeter('cpu').name, 'cpu')
  t.throws(() => parseMeter('cycles'), /^--meter must be one of cpu, instructions, got "cycles"$/)
  t.throws(() => parseMeter('toString'), /--meter must be one of/, 'only the meters themselves')
  t.throws(() => parseMeter('x', { choices: 'cpu or instructions' }), /^--meter must be cpu or instructions, got "x"$/)
  const partsOf = (meter) => ({
    parts: Object.keys(meter).sort(),
    defaults: Object.keys(meter.defaults).filter((key) => key !== 'protocol').sort(),
    calibration: Object.keys(meter.calibration).filter((key) => key !== 'cpuRounds').sort(),
    gates: Object.keys(meter.calibration.gates).sort()
  })
  for (const name of NAMES) {
    t.equal(METERS[name].name, name)
    t.same(partsOf(METERS[name]), partsOf(METERS.cpu), `${name} has what cpu has`)
  }
})

t.test('the CPU meter adds nothing to a run: its gate is the CPU rounds\'', async (t) => {
  const run = METERS.cpu.setUp({ warmupRequests: 200, requests: 100 }, { where: true })
  const baseline = { ratios: [] }
  t.equal(run.checkBaseline(baseline, 'file.json'), baseline)
  t.equal(run.cpuBaseline(baseline), baseline, 'the CPU ratios against a baseline are reported')
  const lines = []
  t.same(await run.count({ print: (line) => lines.push(line) }), {})
  t.same(lines, [], 'nothing printed')
  t.same(run.gate(['cpu fixed: +9 %'], {}), ['cpu fixed: +9 %'])
  t.same(run.renderCounts({}, null), [])
  t.same(run.renderComparison({}, {}), [])
  t.same(METERS.cpu.targetsToCount(['fast', 'fixed']), [])
  t.same(METERS.instructions.targetsToCount(['fast', 'fixed']), ['fast', 'fixed'])
})

t.test('how bench:calibrate taxes each meter and reads its gates', async (t) => {
  t.same(METERS.cpu.calibration.tax('fixed', 1.23456), ['--cpu-tax', 'fixed=1.235'])
  t.same(METERS.instructions.calibration.tax('fixed', 940.4), ['--instruction-tax', 'fixed=940'])
  t.same(METERS.cpu.calibration.runArgs('ci'), [])
  t.same(METERS.instructions.calibration.runArgs('compare'), ['--meter', 'instructions', '--rounds', '2'])
  const windows = [100, 101]
  const result = { instructions: { counts: { base: { fixed: { windows } }, head: { fixed: { windows: [103, 102] } } } } }
  const compare = METERS.instructions.calibration.gates.compare('fixed')
  t.equal(compare.costOf(result), 102, 'the head\'s count: its lowest window')
  t.equal(compare.baseCostOf(result), 100)
  t.same(METERS.instructions.calibration.gates.ci('fixed').cleanTax, ['--instruction-tax', 'fixed=0'])
})
