'use strict'

// Numbers as the tools' sentences write them: a change as "+5.2 %", a figure as "4.56", "56.1" or "1,234".

function signedPercent (change) {
  if (!Number.isFinite(change)) return change > 0 ? '+inf %' : '-inf %'
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`
}

function round (n) {
  if (!Number.isFinite(n)) return '-'
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3)
}

module.exports = { signedPercent, round }
