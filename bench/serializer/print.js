'use strict'

// bench:serializer's printing: where it ran, how, and per body each
// serializer's time, the ratios and the verdict.

const { describeLoad } = require('../print/machine')
const { textTable } = require('../print/table')
const { decimal } = require('../print/numbers')

function renderSetting ({ machine, v8, versions }) {
  const usable = machine.usableCores < machine.cores ? `, ${machine.usableCores} of them usable by this process` : ''
  const load = describeLoad(machine)
  return [
    `Node ${machine.node}, V8 ${v8}, fast-json-stringify ${versions['fast-json-stringify'] ?? 'unknown'}`,
    `CPU: ${machine.cores} x ${machine.cpuModel}${usable}${load === '' ? '' : `; ${load} at the start`}`
  ].join('\n')
}

function renderProtocol ({ rounds, batchMs, sliceMs, warmupRounds }) {
  return [
    `Protocol: one process; ${rounds} rounds after ${warmupRounds} of warm-up; in a round, for each body, the serializers take`,
    `  turns, slices of the same number of calls (about ${sliceMs} ms of JSON.stringify's), A B C then C B A, until each has`,
    `  run about ${batchMs} ms; a round's ns per serialization: the median over its slices (an interrupted slice falls out);`,
    '  each output\'s length and middle character summed and checked (reading it makes V8 flatten a string built by',
    '  concatenation, as a socket or a hash would); ns: the median over rounds; ratios: JSON.stringify\'s time over',
    '  the other\'s in the same round.'
  ].join('\n')
}

/** One body's figures (verdict.js's judgeBody) as a small table and its verdict. */
function renderBody ({ label, bytes, iterations, ns, ratios, verdict }) {
  const rows = Object.entries(ns).map(([name, value]) => ({
    name,
    ns: decimal(value),
    ratio: ratios.find((ratio) => ratio.over === name)
  }))
  const table = textTable([
    { title: 'serializer', value: (row) => row.name, align: 'left' },
    { title: 'ns/serialization', value: (row) => row.ns },
    { title: 'JSON.stringify / it (min-max)', value: (row) => row.ratio ? `${row.ratio.median.toFixed(2)} (${row.ratio.min.toFixed(2)}-${row.ratio.max.toFixed(2)})` : '' }
  ], rows)
  return [
    `${label}: ${bytes.toLocaleString('en-US')} bytes of JSON, ${iterations.toLocaleString('en-US')} serializations each a round`,
    table.replace(/^/gm, '  '),
    `  verdict: ${verdict.text}`
  ].join('\n')
}

module.exports = { renderSetting, renderProtocol, renderBody }
