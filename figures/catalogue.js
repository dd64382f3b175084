'use strict'

// The figures a participant compares against: the command that measures
// each, how its value is read and written, and where a page quotes it
// (`npm run figures` runs them; test/docs/figures.test.js holds the quotes).

const path = require('node:path')
const { targetsIn } = require('../tooling/targets')
const { scripts } = require('../package.json')

const CASE_STUDY = targetsIn('caseStudy')
const [AS_IT_WAS, , FINISHED] = CASE_STUDY
// diagnose/event-loop.js's DELAY_LINE, written again: no tool imports another's command.
const DELAY_LINE = '  delay: median '

// The sources: `argv` after `node` (FILE: a temporary --json file), `read`
// its figures from { json, stdout, seconds }, `conditions` where worth
// measuring. Every bench mode is one, so each goal is checked in each condition.
const BENCH_MODES = {
  start: 'npm start: every variant side by side (goals shown, not enforced)',
  full: 'npm run bench (goals enforced)',
  ci: 'npm run bench:ci',
  logging: 'npm run bench -- --mode logging',
  crypto: 'npm run bench -- --mode crypto',
  backend: 'npm run bench -- --mode backend',
  cluster: 'npm run bench -- --mode cluster'
}

const SOURCES = {
  ...Object.fromEntries(Object.entries(BENCH_MODES).map(([mode, what]) => [mode, {
    what,
    argv: ['bench', '--mode', mode, '--no-html', '--json', 'FILE'],
    read: ({ json, seconds }) => ({
      ...Object.fromEntries(json.ratios.map((entry) => [`bench.${mode}.${entry.name}`, entry.value])),
      [`bench.${mode}.seconds`]: seconds
    })
  }])),
  instructions: {
    what: "the case study's steps counted in instructions (valgrind), slow at its 232nd listener",
    argv: ['bench', '--mode', 'ci', '--meter', 'instructions', '--targets', CASE_STUDY.join(','), '--warmup-requests', '231',
      '--requests', '40', '--connections', '20', '--rounds', '1', '--no-html', '--json', 'FILE'],
    conditions: ['quiet'],
    read: ({ json }) => {
      const [slow, fast, fixed] = CASE_STUDY.map((target) => Math.min(...json.instructions.counts[target].windows))
      return { 'instructions.slow-fast': slow / fast, 'instructions.fast-fixed': fast / fixed }
    }
  },
  doctor: npmRun('doctor', 'doctor', AS_IT_WAS, (stdout) => ({
    'doctor.slow': doctorVerdict(stdout).join(' ')
  })),
  'doctor-fixed': npmRun('doctor-fixed', 'doctor', FINISHED, (stdout) => ({
    'doctor-fixed.verdict': doctorVerdict(stdout)[0]
  })),
  'event-loop': npmRun('event-loop', 'event-loop', AS_IT_WAS, (stdout) => ({
    'event-loop.slow': lastLineStarting(stdout, `${AS_IT_WAS} `),
    'event-loop.slow-max': maxDelay(lastLineStarting(stdout, DELAY_LINE))
  })),
  'event-loop-fixed': npmRun('event-loop-fixed', 'event-loop', FINISHED, (stdout) => ({
    'event-loop-fixed.verdict': lastLineStarting(stdout, `${FINISHED} `),
    'event-loop-fixed.max': maxDelay(lastLineStarting(stdout, DELAY_LINE))
  })),
  flame: npmRun('flame', 'flame', AS_IT_WAS, (stdout) => ({ 'flame.slow-top': topFrameShare(stdout, 'slow/etag.js:25') })),
  profile: npmRun('profile', 'profile', AS_IT_WAS, (stdout) => ({ 'profile.slow-top': topFrameShare(stdout, 'slow/etag.js:25') })),
  serializer: {
    what: 'npm run bench:serializer: fast-json-stringify beside JSON.stringify',
    argv: [path.join('bench', 'serializer'), '--json', 'FILE'],
    read: ({ json }) => ({
      'serializer.fixed-body': json.bodies.fixed.ratio.median,
      'serializer.small-body': json.bodies.small.ratio.median
    })
  }
}

// `npm run SCRIPT -- TARGET`, argv from package.json: the command a participant types.
function npmRun (id, script, target, read) {
  return {
    what: `npm run ${script} -- ${target}`,
    argv: [...scripts[script].split(' ').slice(1), target],
    read: ({ stdout, seconds }) => ({ ...read(stdout), [`${id}.seconds`]: seconds })
  }
}

const times = (value) => value >= 20 ? String(Math.round(value)) : value >= 2 ? value.toFixed(1) : value.toFixed(2)
const whole = (value) => String(Math.round(value))

const NAMED = {
  'instructions.slow-fast': { what: "instructions per request, slow at its 232nd listener / fast's", format: times },
  'instructions.fast-fixed': { what: "instructions per request, fast's / fixed's", format: times },
  'doctor.slow': { what: "Doctor's verdict on slow (whole)", format: String },
  'doctor-fixed.verdict': { what: "Doctor's verdict on fixed (up to its figures)", format: String },
  'event-loop.slow': { what: 'npm run event-loop -- slow: its leak verdict (up to its figures)', format: String },
  'event-loop.slow-max': { what: 'npm run event-loop -- slow: the longest event-loop delay of the load, in ms', format: whole },
  'event-loop-fixed.verdict': { what: 'npm run event-loop -- fixed: its leak verdict (up to its figures)', format: String },
  'event-loop-fixed.max': { what: 'npm run event-loop -- fixed: the longest event-loop delay of the load, in ms', format: whole },
  'flame.slow-top': { what: "the share of Flame's samples on slow's hottest frame by self time, slow/etag.js:25 (the 'after' listener), %", format: (value) => value.toFixed(1) },
  'profile.slow-top': { what: "the share of the CPU profile's samples on slow's hottest frame by self time, Node's internal modules folded, slow/etag.js:25, %", format: (value) => value.toFixed(1) },
  'serializer.fixed-body': { what: "JSON.stringify's time / fast-json-stringify's, on fixed's body (10,000 characters of hex)", format: (value) => value.toFixed(2) },
  'serializer.small-body': { what: "JSON.stringify's time / fast-json-stringify's, on a body of the same shape with 64 characters of data", format: (value) => value.toFixed(2) }
}

// Figure `id`: { source, what, format }, or null for an id no source gives.
function figureOf (id) {
  const bench = /^bench\.(\w+)\.(.+)$/.exec(id)
  if (bench) {
    if (!BENCH_MODES[bench[1]]) return null
    const isSeconds = bench[2] === 'seconds'
    return { source: bench[1], what: isSeconds ? 'the run, in seconds' : bench[2], format: isSeconds ? whole : times }
  }
  const run = /^(.+)\.seconds$/.exec(id)
  if (run && SOURCES[run[1]]) return { source: run[1], what: `${SOURCES[run[1]].what}, start to its last line, in seconds`, format: whole }
  const named = NAMED[id]
  if (!named) return null
  const source = Object.keys(SOURCES).find((name) => !BENCH_MODES[name] && id.startsWith(`${name}.`))
  return { source, ...named }
}

// Where the pages quote a figure: `text(range)`, of Node line `line` where a
// page sets lines side by side. The README quotes no range of a throughput
// ratio or a share of samples, which move with the CPU: it shows one run's
// output (held by shape: test/readme-output.js) and links docs/figures.md.
const QUOTES = [
  { id: 'instructions.slow-fast', page: 'README.md', text: ({ min, max }) => `a request at slow's 232nd listener costs ${span(min, max)} times fast's` },
  { id: 'instructions.fast-fixed', page: 'README.md', text: ({ min, max }) => `fast's ${span(min, max)} times fixed's` },
  ...[22, 24, 26].flatMap((line) => [
    { id: 'flame.slow-top', line, page: 'docs/node-lines.md', text: ({ min, max }) => `| Flame's share on \`slow/etag.js:25\` (%) | ${line} | ${span(min, max)} |` },
    { id: 'profile.slow-top', line, page: 'docs/node-lines.md', text: ({ min, max }) => `| the CPU profile's share on \`slow/etag.js:25\` (%) | ${line} | ${span(min, max)} |` },
    { id: 'bench.start.cpu fast/fixed', line, page: 'docs/node-lines.md', text: ({ min, max }) => `| \`npm start\`'s cpu fast/fixed | ${line} | ${span(min, max)} |` },
    { id: 'bench.start.cpu fixed/fastify', line, page: 'docs/node-lines.md', text: ({ min, max }) => `| \`npm start\`'s cpu fixed/fastify | ${line} | ${span(min, max)} |` },
    { id: 'serializer.fixed-body', line, page: 'docs/node-lines.md', text: ({ min, max }) => `| JSON.stringify / fast-json-stringify on fixed's body | ${line} | ${span(min, max)} |` },
    { id: 'instructions.fast-fixed', line, page: 'docs/node-lines.md', text: ({ min, max }) => `| instructions per request, fast/fixed | ${line} | ${span(min, max)} |` }
  ])
]

const CONDITIONS = ['quiet', 'one-core', 'cpu-hog']

function span (min, max) {
  return min === max ? min : `${min} to ${max}`
}

function lastLineStarting (stdout, prefix) {
  const line = stdout.split('\n').reverse().find((text) => text.startsWith(prefix))
  if (!line) throw new Error(`no line starting "${prefix}"`)
  return line
}

// What Doctor prints after its report's path, a line each: the verdict's sentence, its figures.
function doctorVerdict (stdout) {
  const after = stdout.split(/^Report: .*$/m)[1]
  if (after === undefined) throw new Error('no line "Report: " in the output')
  return after.split('\n').map((line) => line.trim()).filter(Boolean)
}

function maxDelay (line) {
  const match = /\bmax ([\d.]+) ms/.exec(line)
  if (!match) throw new Error(`no max delay in "${line}"`)
  return Number(match[1])
}

function topFrameShare (stdout, frame) {
  const lines = stdout.split('\n')
  // The heading may run on a second line: the first frame is the first line with a share.
  const top = lines.slice(lines.findIndex((line) => line.startsWith('Hottest frames by self time')) + 1).find((line) => /^\s*[\d.]+ %/.test(line)) ?? ''
  const match = /^\s*([\d.]+) %\s+\S+\s+(\S+)/.exec(top)
  if (!match) throw new Error(`no hottest frame in the output: "${top}"`)
  if (match[2] !== frame) throw new Error(`the hottest frame is ${match[2]}, not ${frame}`)
  return Number(match[1])
}

module.exports = { SOURCES, BENCH_MODES, QUOTES, CONDITIONS, figureOf }
