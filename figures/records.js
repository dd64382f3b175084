'use strict'

// docs/figures.json: every figure's values, each with the Node release, CPU
// and condition it was measured in. From it come the ranges the pages quote
// and docs/figures.md.

const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../tooling/repo')
const { MODES, RATIOS } = require('../bench/judge/goals')
const { SOURCES, BENCH_MODES, QUOTES, CONDITIONS, figureOf } = require('./catalogue')

const RECORDS_FILE = path.join(ROOT, 'docs', 'figures.json')
const PAGE_FILE = path.join(ROOT, 'docs', 'figures.md')

const lineOf = (node) => Number(/^v?(\d+)\./.exec(node)[1])

function readRecords (file = RECORDS_FILE) {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
}

function writeRecords (records, file = RECORDS_FILE) {
  const sorted = Object.fromEntries(Object.keys(records).sort().map((id) => [id, records[id]]))
  fs.writeFileSync(file, JSON.stringify(sorted, null, 2) + '\n')
}

const bySetting = (a, b) => lineOf(b.node) - lineOf(a.node) || a.cpu.localeCompare(b.cpu) ||
  CONDITIONS.indexOf(a.condition) - CONDITIONS.indexOf(b.condition)

// `records` with `value` for figure `id`, replacing the value of the same
// release, CPU and condition; other settings' values stay.
function withValue (records, id, { value, node, cpu, condition }) {
  const kept = (records[id] ?? []).filter((entry) => !(entry.node === node && entry.cpu === cpu && entry.condition === condition))
  return { ...records, [id]: [...kept, { value, node, cpu, condition }].sort(bySetting) }
}

const valuesOn = (records, id, line) => (records[id] ?? []).filter((entry) => lineOf(entry.node) === line)

// { min, max, count } for numbers, { values } for texts; null when none on `line`.
function rangeOn (records, id, line) {
  const values = valuesOn(records, id, line).map((entry) => entry.value)
  if (values.length === 0) return null
  const { format } = figureOf(id)
  if (typeof values[0] !== 'number') return { values: [...new Set(values.map(format))] }
  return { min: format(Math.min(...values)), max: format(Math.max(...values)), count: values.length }
}

// Every quote with its range on Node `line`, or on the line the quote names.
function quotesOn (records, line) {
  return QUOTES.flatMap((quote) => {
    const range = rangeOn(records, quote.id, quote.line ?? line)
    return range ? [{ id: quote.id, page: quote.page, line: quote.line, text: quote.text(range) }] : []
  })
}

function mainLine () {
  return Number(fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim())
}

function renderPage (records, mainLine) {
  const lines = [...new Set(Object.values(records).flat().map((entry) => lineOf(entry.node)))].sort((a, b) => b - a)
  const out = [
    '# Figures',
    '',
    'The figures the README and these pages quote, each from a command anyone can run again.',
    '`npm run figures` runs them all (about 45 minutes; `-- --only SOURCES` for some), in one of',
    'three conditions: `quiet`, as the machine is; `one-core`, every command under `taskset -c 0`',
    '(server and load on one core); `cpu-hog`, beside `npm run cpu-hog` (about half the machine).',
    'It keeps each value in `docs/figures.json` with its Node release, CPU and condition, writes',
    "this page, and rewrites a page's quote whose range moved; `test/docs/figures.test.js` holds",
    `each quote to the range on \`.nvmrc\`'s line (${mainLine}). Server and load share the cores:`,
    'read a figure as a ratio within one run, never as an absolute.',
    '',
    '## The goals',
    '',
    `Every goal the benchmark enforces, and the values it was held to on Node ${mainLine}: the`,
    'worst of them, and how far it clears the goal (a goal is set to clear its worst run in the',
    'three conditions by 10 % or more).',
    '',
    '| mode | ratio | goal | values (condition) | worst over the goal |',
    '|---|---|---|---|---|'
  ]
  for (const [mode, rules] of Object.entries(MODES)) {
    for (const [name, goal] of Object.entries(rules.goals)) {
      const better = RATIOS.find((entry) => entry.name === name)?.better
      const entries = valuesOn(records, `bench.${mode}.${name}`, mainLine)
      const values = entries.map((entry) => `${figureOf(`bench.${mode}.${name}`).format(entry.value)} (${entry.condition})`).join(', ')
      const worst = entries.length === 0 ? null : better === 'higher' ? Math.min(...entries.map((e) => e.value)) : Math.max(...entries.map((e) => e.value))
      const margin = worst === null ? '' : `${Math.round((better === 'higher' ? worst / goal - 1 : goal / worst - 1) * 100)} %`
      out.push(`| ${mode}${rules.enforce ? '' : ' (shown)'} | ${name} | ${better === 'higher' ? '≥' : '≤'} ${goal} | ${values || 'not measured'} | ${margin} |`)
    }
  }
  out.push('')
  for (const [name, source] of Object.entries(SOURCES)) {
    const ids = Object.keys(records).filter((id) => figureOf(id)?.source === name)
    if (ids.length === 0) continue
    out.push(`## ${BENCH_MODES[name] ? `bench ${name}` : name}`, '', `${source.what}:`, '',
      '| figure | Node | values (condition, CPU, release) |', '|---|---|---|')
    for (const id of ids) {
      for (const line of lines) {
        const entries = valuesOn(records, id, line)
        if (entries.length === 0) continue
        const { what, format } = figureOf(id)
        const values = entries.map((entry) => `${escapeCell(format(entry.value))} (${entry.condition}, ${entry.cpu}, ${entry.node})`)
        out.push(`| ${escapeCell(what)} | ${line} | ${values.join('<br>')} |`)
      }
    }
    out.push('')
  }
  return out.join('\n')
}

function escapeCell (text) {
  return String(text).replace(/\|/g, '\\|')
}

module.exports = { RECORDS_FILE, PAGE_FILE, lineOf, mainLine, readRecords, writeRecords, withValue, rangeOn, quotesOn, renderPage }
