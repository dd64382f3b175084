'use strict'

// `npm run report -- RUN.json [--html FILE]`: the HTML page of a stored `--json` result of
// the benchmark, as the run itself writes it (bench/print/html/page.js). "Report" means this
// page, and only it.

const fs = require('node:fs')
const { runAsProcess, parseCommandLine, UsageError } = require('../../tooling/command')
const { readJson } = require('../../tooling/json-file')
const { renderHtml } = require('../print/html/page')

const USAGE = `Usage: npm run report -- RUN.json [--html FILE]

Writes the self-contained HTML page of a benchmark result stored with
\`npm run bench -- --json RUN.json\` (any mode): charts of requests per
second, the leak, CPU per request and latency, with their figures, the
ratios and the protocol. FILE defaults to RUN.json's path with .html.
Exit codes: 0 written, 1 it could not be, 2 bad arguments.
`

async function main (argv, { stdout }) {
  const { values, positionals } = parseCommandLine(argv, { html: { type: 'string' } }, { positionals: true })
  if (positionals.length !== 1) throw new UsageError('name one --json result of the benchmark')
  const [file] = positionals
  const results = readResult(file)
  const out = values.html ?? file.replace(/(\.json)?$/, '.html')
  fs.writeFileSync(out, renderHtml(results))
  stdout.write(`report: ${out}\n`)
  return 0
}

function readResult (file) {
  return readJson(file, {
    isWanted: (parsed) => Boolean(parsed && parsed.protocol && Array.isArray(parsed.runs) && Array.isArray(parsed.summaries) && Array.isArray(parsed.ratios)),
    notWanted: 'is not a --json result of the benchmark (no protocol, runs, summaries and ratios)'
  })
}

const command = { name: 'report', usage: USAGE, main }

module.exports = { command }

if (require.main === module) runAsProcess(command)
