'use strict'

// Numbers as the tools' sentences write them.

/**
 * A change as a signed percentage with one decimal: 0.052 reads "+5.2 %",
 * -0.1 "-10.0 %"; an infinite one "+inf %" or "-inf %".
 */
function signedPercent (change) {
  if (!Number.isFinite(change)) return change > 0 ? '+inf %' : '-inf %'
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`
}

/**
 * A figure rounded for a sentence: three significant digits under 100
 * ("4.56", "56.1"), a whole number with thousands separators from 100 up
 * ("1,234"), "-" for none.
 */
function round (n) {
  if (!Number.isFinite(n)) return '-'
  return n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3)
}

module.exports = { signedPercent, round }
