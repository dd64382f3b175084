'use strict'

// A run as Markdown, for a CI summary or the docs: the protocol in a
// sentence, the table of medians, the ratios with their goals and verdicts.

const { ratioText, ratioValueText, goalText } = require('./numbers')
const { markdownTable } = require('./table')
const { SUMMARY_COLUMNS } = require('./text')

/**
 * The protocol, table and ratios as Markdown, for a CI summary or the docs.
 */
function renderMarkdown ({ mode, protocol, machine, summaries, ratios }) {
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
    ''
  ].join('\n')
}

module.exports = { renderMarkdown }
