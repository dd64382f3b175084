'use strict'

// A run as Markdown, for a CI summary or the docs: the protocol in a
// sentence, the table of medians, the ratios with their goals and verdicts.

const { ratioText, ratioValueText, goalText } = require('./numbers')
const { markdownTable } = require('./table')
const { SUMMARY_COLUMNS } = require('./text')
const { renderChangesMarkdown, describeMeter, countRows } = require('./instructions')
const { metric } = require('../protocol/metrics')

const CPU = metric('cpuMicrosPerRequest')

// With --meter instructions, the counts follow, with CPU per request beside them.
function renderMarkdown ({ mode, protocol, machine, summaries, ratios, instructions }) {
  const ratioRows = ratios.map((r) => `| ${r.name} | ${ratioValueText(r)} | ${goalText(r)} | ` +
    `${r.holds === null ? '' : r.holds ? 'holds' : '**short**'} | ${r.pairs.map(ratioText).join(', ')} |`)
  return [
    `Mode \`${mode}\`: autocannon -c ${protocol.connections}, ${protocol.warmup} s warm-up, ` +
      `${protocol.duration} s measured (slow: ${protocol.warmupRequests} + ${protocol.requests} requests), ${protocol.rounds} round(s); ` +
      `${machine.cores} x ${machine.cpuModel}, Node ${machine.node}.`,
    '',
    ...markdownTable(SUMMARY_COLUMNS, summaries),
    '',
    '| ratio | value | goal | verdict | pairs |',
    '|---|---:|---|---|---|',
    ...ratioRows,
    '',
    ...(instructions ? [...instructionsMarkdown(instructions, summaries), ''] : [])
  ].join('\n')
}

function instructionsMarkdown (instructions, summaries) {
  const cpu = Object.fromEntries(summaries.map((s) => [s.target, s[CPU.key]]))
  if (instructions.comparisons) {
    const beside = Object.fromEntries(Object.entries(cpu).map(([target, head]) => [target, { base: null, head }]))
    return ['**Instructions per request, against the baseline** (base: the baseline, head: this run)', '', ...renderChangesMarkdown(instructions, beside)]
  }
  return [
    '**Instructions per request**',
    '',
    `| target | instructions/req | windows spread | ${CPU.label} |`,
    '|---|---:|---:|---:|',
    ...countRows(instructions.counts, cpu).map((row) => `| ${row.target} | ${Math.round(row.count).toLocaleString('en-US')} | ${(row.spread * 100).toFixed(2)} % | ${row.cpu === null ? 'n/a' : row.cpu.toFixed(1)} |`),
    '',
    ...describeMeter(instructions.meter)
  ]
}

module.exports = { renderMarkdown }
