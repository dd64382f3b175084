'use strict'

// `npm run figures -- [--condition C] [--only SOURCES]`: measures the
// figures the pages quote (catalogue.js), keeps them in docs/figures.json
// and rewrites the quotes that moved. `--render` measures nothing.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { runAsProcess, parseCommandLine, UsageError } = require('../tooling/command')
const { ROOT } = require('../tooling/repo')
const { SOURCES, CONDITIONS } = require('./catalogue')
const { readRecords, writeRecords, withValue, quotesOn, renderPage, mainLine: readMainLine, RECORDS_FILE, PAGE_FILE } = require('./records')
const { renderPages } = require('./rendered')

const USAGE = `Usage: npm run figures -- [--condition ${CONDITIONS.join(' | ')}] [--only SOURCES]
       npm run figures -- --render

Runs the commands that measure the figures the README and docs/ quote, on
the Node running it, and keeps each value in docs/figures.json (replacing
the value of the same Node release, CPU and condition), then writes
docs/figures.md and updates each page's quote of a figure of .nvmrc's line.
  --condition  quiet (default): as the machine is; one-core: every command
               under taskset -c 0; cpu-hog: beside npm run cpu-hog
  --only       comma-separated, from: ${Object.keys(SOURCES).join(', ')}
  --render     measure nothing: write docs/figures.md from docs/figures.json,
               and the parts of the pages made from the code (the goals
               tables), in seconds
About 45 minutes for every source. Exit 1 when a source gave no figure.
`

async function main (argv, { stdout }) {
  const { values } = parseCommandLine(argv, { condition: { type: 'string' }, only: { type: 'string' }, render: { type: 'boolean', default: false } })
  if (values.render) {
    if (values.condition || values.only) throw new UsageError('--render measures nothing: give it alone')
    const changed = renderPages()
    stdout.write(changed.length === 0 ? 'figures: every page was up to date\n' : changed.map((page) => `figures: rendered ${page}\n`).join(''))
    return 0
  }
  values.condition ??= 'quiet'
  const condition = values.condition
  if (!CONDITIONS.includes(condition)) throw new UsageError(`--condition must be one of ${CONDITIONS.join(', ')}, got "${condition}"`)
  const names = values.only ? values.only.split(',').map((name) => name.trim()) : Object.keys(SOURCES)
  for (const name of names) if (!SOURCES[name]) throw new UsageError(`unknown source "${name}": choose from ${Object.keys(SOURCES).join(', ')}`)
  const setting = { node: process.version, cpu: os.cpus()[0]?.model.trim() ?? 'unknown', condition }
  stdout.write(`figures: ${names.join(', ')} on Node ${setting.node}, ${setting.cpu}, ${condition}\n`)

  const mainLine = readMainLine()
  let records = readRecords()
  const quotesBefore = quotesOn(records, mainLine)
  let failed = false
  const hog = condition === 'cpu-hog' ? startCpuHog() : null
  try {
    for (const name of names) {
      const source = SOURCES[name]
      if (source.conditions && !source.conditions.includes(condition)) {
        stdout.write(`figures: ${name}: measured ${source.conditions.join(', ')} only; not in ${condition}\n`)
        continue
      }
      try {
        const figures = source.read(await runSource(source, condition))
        for (const [id, value] of Object.entries(figures)) {
          records = withValue(records, id, { ...setting, value })
          stdout.write(`figures: ${id}: ${typeof value === 'number' ? value.toFixed(2) : value}\n`)
        }
      } catch (err) {
        failed = true
        stdout.write(`figures: ${name}: no figure: ${err.message}\n`)
      }
    }
  } finally {
    if (hog) hog.kill()
  }

  writeRecords(records)
  fs.writeFileSync(PAGE_FILE, renderPage(records, mainLine))
  stdout.write(`figures: wrote ${path.relative(ROOT, RECORDS_FILE)} and ${path.relative(ROOT, PAGE_FILE)}\n`)
  for (const line of updateQuotes(quotesBefore, quotesOn(records, mainLine))) stdout.write(`figures: ${line}\n`)
  return failed ? 1 : 0
}

// Resolves to { json, stdout, seconds } whatever the exit code: a benchmark
// that missed its goal still wrote its figures.
async function runSource (source, condition) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'figures-'))
  const file = path.join(scratch, 'run.json')
  const argv = [process.execPath, ...source.argv.map((arg) => arg === 'FILE' ? file : arg)]
  const command = condition === 'one-core' ? ['taskset', '-c', '0', ...argv] : argv
  const started = process.hrtime.bigint()
  try {
    const { code, stdout } = await new Promise((resolve, reject) => {
      const child = spawn(command[0], command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
      let text = ''
      child.stdout.setEncoding('utf8').on('data', (chunk) => { text += chunk })
      child.on('error', reject)
      child.on('close', (exitCode) => resolve({ code: exitCode, stdout: text }))
    })
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const json = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null
    if (source.argv.includes('FILE') && json === null) throw new Error(`${source.argv.join(' ')} exited ${code} and wrote nothing`)
    return { json, stdout, seconds }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

// Capped at an hour, in case this process dies before it can stop the hog.
function startCpuHog () {
  return spawn(process.execPath, [path.join(ROOT, 'tooling', 'cpu-hog.js'), '--seconds', '3600'], { stdio: 'ignore' })
}

// Rewrites each moved quote where its old text is; returns the lines to print.
function updateQuotes (before, after, root = ROOT) {
  const lines = []
  for (const quote of after) {
    // A figure can be quoted twice in a page, each of another line.
    const old = before.find((entry) => entry.id === quote.id && entry.page === quote.page && entry.line === quote.line)
    const file = path.join(root, quote.page)
    const text = fs.readFileSync(file, 'utf8')
    if (text.includes(quote.text)) continue
    if (old && text.includes(old.text)) {
      fs.writeFileSync(file, text.replace(old.text, quote.text))
      lines.push(`${quote.page}: "${old.text}" is now "${quote.text}"`)
    } else {
      lines.push(`${quote.page}: write ${quote.id} as "${quote.text}" (its old text was not found)`)
    }
  }
  return lines
}

module.exports = { name: 'figures', usage: USAGE, main, updateQuotes }

if (require.main === module) runAsProcess(module.exports)
