'use strict'

// The instruction meter's figures, for a terminal and as Markdown, with CPU per request beside
// them: CPU is what a user pays, the count says whether the code changed.

const { signedPercent } = require('../../tooling/number-text')
const { decimal } = require('./numbers')
const { textTable, markdownTable } = require('./table')
const { spread } = require('../judge/stats')
const { countOf } = require('../judge/instructions')

const count = (value) => value === null || value === undefined ? 'n/a' : Math.round(value).toLocaleString('en-US')
const percent = (value) => `${(value * 100).toFixed(2)} %`

// What the meter is and is not, in two lines, with where it counted when that was recorded.
function describeMeter ({ node, valgrind, protocol, libc, cpu, clock }) {
  const where = libc ? `, ${libc}, CPU as valgrind shows it: ${cpu?.guest ?? 'unknown'} (host ${cpu?.host ?? 'unknown'})` : ''
  return [
    `Instructions per request: callgrind (valgrind ${valgrind}), Node ${node}${where}, V8 set to repeat itself; ${protocol.warmupRequests} + ${protocol.settleRequests} requests ` +
      `before ${protocol.windows} windows of ${protocol.windowRequests}, one request at a time (slow: after ${protocol.leakingWarmupRequests}, windows of ${protocol.leakingWindowRequests})` +
      (clock ? `; the server's clock ${clock}.` : '.'),
    'Not counted: JIT compilation, garbage collection, the C library\'s allocator (malloc, free), the event loop\'s polling, the frozen clock and what a clock drives (timers), the kernel (system calls, network), cache misses, waiting: CPU per request sees those.'
  ]
}

// Each target's count alone. countRows takes `counts` ({ target: { windows } }) and the CPU
// per request measured beside them (`cpu`: { target: micros }).
const COUNT_COLUMNS = [
  { title: 'target', value: (row) => row.target, align: 'left' },
  { title: 'instructions/req', value: (row) => count(row.count) },
  { title: 'windows spread', value: (row) => percent(row.spread) },
  { title: 'CPU µs/req', value: (row) => decimal(row.cpu) }
]

function countRows (counts, cpu = {}) {
  return Object.entries(counts).map(([target, { windows }]) =>
    ({ target, count: countOf(windows), spread: spread(windows), cpu: cpu[target] ?? null }))
}

// judgeInstructions's comparisons against a base, `sides` naming the two (base and head, or a
// stored run and this one); withCpu adds each side's CPU per request (`cpu`: { target: { base, head } }).
const changeColumns = ([base, head]) => [
  { title: 'target', value: (c) => c.target, align: 'left' },
  { title: `instructions/req ${base} -> ${head}`, value: (c) => `${count(c.base)} -> ${count(c.head)}` },
  { title: 'change', value: (c) => signedPercent(c.change) },
  { title: 'windows spread', value: (c) => percent(c.spread) },
  { title: 'p', value: (c) => (c.change >= 0 ? c.pWorse : c.pBetter).toPrecision(2) },
  { title: `CPU µs/req ${base} -> ${head}`, value: (c) => c.cpu ? `${decimal(c.cpu.base)} -> ${decimal(c.cpu.head)}` : 'n/a' },
  { title: 'verdict', value: (c) => c.verdict, align: 'left' }
]
const BASE_AND_HEAD = ['base', 'head']

function withCpu (comparisons, cpu = {}) {
  return comparisons.map((c) => ({ ...c, cpu: cpu[c.target] ?? null }))
}

function readingNote ({ alpha, alphaPerTarget, maxRegression }, windows) {
  return `Figures are each side's lowest window (what disturbs a count only adds to it); p = one-sided exact permutation test of the ${windows} windows of each side ` +
    `(alpha ${alpha} over the targets, ${alphaPerTarget.toPrecision(2)} each); a REGRESSION is significant and at least ${signedPercent(maxRegression)}.`
}

// The progress line of one count: its windows, and how long it took.
function renderCountLine ({ side, target, windows, seconds }, width) {
  return `  instructions  ${target.padEnd(width)}  ${side === undefined ? '' : `${side.padEnd(4)}  `}` +
    `${windows.map((w) => Math.round(w).toLocaleString('en-US')).join(' ')} per request  (${seconds.toFixed(0)} s)`
}

function renderCounts (instructions, cpu) {
  return [...describeMeter(instructions.meter), '', textTable(COUNT_COLUMNS, countRows(instructions.counts, cpu))].join('\n')
}

function renderChanges (instructions, cpu, sides = BASE_AND_HEAD) {
  return [
    ...describeMeter(instructions.meter),
    '',
    textTable(changeColumns(sides), withCpu(instructions.comparisons, cpu)),
    '',
    readingNote(instructions, instructions.meter.protocol.windows),
    ...instructions.notes.map((note) => `Note: ${note}.`)
  ].join('\n')
}

function renderChangesMarkdown (instructions, cpu) {
  const table = markdownTable(changeColumns(BASE_AND_HEAD), withCpu(instructions.comparisons, cpu), {
    title: (col) => col.title.replace('->', '→'),
    cell: (col, c) => {
      const text = col.value(c).replace(/->/g, '→')
      return col.title === 'verdict' && c.regressed ? `**${text}**` : text
    }
  })
  return [...table, '', readingNote(instructions, instructions.meter.protocol.windows), '', ...describeMeter(instructions.meter).join(' ').split('\n')]
}

module.exports = { renderCountLine, describeMeter, renderCounts, renderChanges, renderChangesMarkdown, countRows }
