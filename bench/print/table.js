'use strict'

// Tables of `items` by `columns` ({ title, value(item), align }), for a terminal or as Markdown.

function textTable (columns, items) {
  const rows = [columns.map((c) => c.title), ...items.map((item) => columns.map((c) => c.value(item)))]
  const widths = columns.map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  const line = (row) => row.map((cell, i) => columns[i].align === 'left' ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join('  ')
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n')
}

function markdownTable (columns, items, { title = (c) => c.title, cell = (c, item) => c.value(item) } = {}) {
  return [
    `| ${columns.map(title).join(' | ')} |`,
    `|${columns.map((c) => c.align === 'left' ? '---' : '---:').join('|')}|`,
    ...items.map((item) => `| ${columns.map((c) => cell(c, item)).join(' | ')} |`)
  ]
}

module.exports = { textTable, markdownTable }
