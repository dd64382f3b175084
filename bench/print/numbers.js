'use strict'

// A run's figures as every printer writes them: terminal, Markdown, HTML and bench:compare.

const { metric } = require('../protocol/metrics')

function integer (n) {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a'
}

function decimal (n) {
  if (!Number.isFinite(n)) return 'n/a'
  return n >= 100 ? integer(n) : n.toFixed(n >= 10 ? 1 : 2)
}

// `key` is a row of bench/protocol/metrics.js: its printed unit (`per`: bytes as MB) and format.
function figureText (key, value) {
  const { format, per } = metric(key)
  return FORMATS[format](per ? value / per : value)
}

function figureColumn (key) {
  return { title: metric(key).label, value: (item) => figureText(key, item[key]) }
}

// Three significant digits from 1 up: 10.5 shown without decimals would read "11", 5 % off.
function ratioText (n) {
  if (!Number.isFinite(n)) return 'n/a'
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)
}

// As many digits as the verdict needs: 1.997 against a goal of >= 2 reads "1.997", not "2.00".
function ratioValueText ({ value, goal, better, holds }) {
  const reads = (text) => better === 'lower' ? Number(text) <= goal : Number(text) >= goal
  let text = ratioText(value)
  if (holds === null || goal === null || !Number.isFinite(value)) return text
  for (let digits = 4; reads(text) !== holds && digits <= 8; digits++) text = value.toPrecision(digits)
  return text
}

function goalText ({ goal, better }) {
  return goal === null ? '' : `${better === 'lower' ? '≤' : '≥'} ${goal}`
}

const FORMATS = { integer, decimal }

module.exports = { integer, decimal, figureText, figureColumn, ratioText, ratioValueText, goalText }
