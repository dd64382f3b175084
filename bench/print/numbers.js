'use strict'

// The figures of a run as its printers write them: in the terminal's
// table, the Markdown, the HTML page and bench:compare's table alike.

const { metric } = require('../protocol/metrics')

function integer (n) {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a'
}

function decimal (n) {
  if (!Number.isFinite(n)) return 'n/a'
  return n >= 100 ? integer(n) : n.toFixed(n >= 10 ? 1 : 2)
}

/**
 * A run's figure `key` (a row of bench/protocol/metrics.js) as the tables
 * write it: in its printed unit (divided by `per`: bytes as MB) and its
 * format; 'n/a' where there is none.
 */
function figureText (key, value) {
  const { format, per } = metric(key)
  return FORMATS[format](per ? value / per : value)
}

// A table's column of that figure (print/table.js), titled by its label.
function figureColumn (key) {
  return { title: metric(key).label, value: (item) => figureText(key, item[key]) }
}

// Three significant digits from 1 up: a ratio between 10 and 100 (cpu
// slow/fast in a short run, say) shown without decimals would be up to 5 %
// off (10.5 read "11").
function ratioText (n) {
  if (!Number.isFinite(n)) return 'n/a'
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)
}

/**
 * A ratio's value as text, with as many digits as its verdict needs: 1.997
 * against a goal of >= 2 reads "1.997", not "2.00" beside SHORT.
 */
function ratioValueText ({ value, goal, better, holds }) {
  const reads = (text) => better === 'lower' ? Number(text) <= goal : Number(text) >= goal
  let text = ratioText(value)
  if (holds === null || goal === null || !Number.isFinite(value)) return text
  for (let digits = 4; reads(text) !== holds && digits <= 8; digits++) text = value.toPrecision(digits)
  return text
}

// A goal as the Markdown and the page write it: "≥ 2", "≤ 1.75", or "".
function goalText ({ goal, better }) {
  return goal === null ? '' : `${better === 'lower' ? '≤' : '≥'} ${goal}`
}

const FORMATS = { integer, decimal }

module.exports = { integer, decimal, figureText, figureColumn, ratioText, ratioValueText, goalText }
