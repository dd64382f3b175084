'use strict'

// `npm run trace-leak [-- SERVER]`: the case study's debugging step, without editing
// the repo. A copy of slow/ without the line that hides MaxListenersExceededWarning
// runs with --trace-warnings until the warning's stack names who adds the listener.

const fs = require('node:fs')
const path = require('node:path')
const http = require('node:http')
const { spawnServer } = require('../tooling/spawn-server')
const { runAsProcess, parseCommandLine, UsageError } = require('../tooling/command')
const { ROOT, shownPath } = require('../tooling/repo')
const { resolveServerPath } = require('../tooling/server-path')

const USAGE = `Usage: npm run trace-leak [-- SERVER]

Runs a copy of slow/ (or of SERVER's folder: your workshop copy, say)
without the line that hides Node's MaxListenersExceededWarning, under a
few requests, and prints the warning with its stack, which names the
function that adds the listener.
Exit codes: 0 the warning was printed, 1 it was not (no listener piled up),
2 bad arguments.
`
// A folder per run, so two runs cannot empty each other's copy; inside the
// repo, so the copy's require() finds node_modules.
const WORKDIR_PREFIX = path.join(ROOT, '.clinic', 'trace-leak-')
// Its line ending is kept: a checkout on Windows may have CRLF.
const HIDING_LINE = /^require\('node:events'\)\.defaultMaxListeners = Infinity(\r?\n)/m
const REQUESTS = 15 // Node warns at the 11th listener
const WARNING_WAIT_MS = 2000

function prepareCopy (entry, workdir) {
  const folder = fs.statSync(entry).isDirectory() ? entry : path.dirname(entry)
  const copy = path.join(workdir, path.basename(folder))
  fs.cpSync(folder, copy, { recursive: true, filter: (file) => !file.includes(`${path.sep}node_modules`) })
  fs.cpSync(path.join(ROOT, 'core'), path.join(workdir, 'core'), { recursive: true })
  let removed = null
  for (const file of fs.readdirSync(copy, { recursive: true }).filter((name) => name.endsWith('.js'))) {
    const source = fs.readFileSync(path.join(copy, file), 'utf8')
    const match = HIDING_LINE.exec(source)
    if (!match) continue
    removed = match[0].trim()
    // Blanked rather than deleted, so the stack's line numbers match the original's.
    fs.writeFileSync(path.join(copy, file), source.replace(HIDING_LINE, '// (removed by npm run trace-leak)$1'))
  }
  return { entry: path.join(copy, path.relative(folder, entry)), removed }
}

// Resolves to { removed, warning, adder } (each null where there is none) and copyFolder, gone by then.
async function traceLeak ({ entry = path.join(ROOT, 'slow'), log = () => {} } = {}) {
  fs.mkdirSync(path.dirname(WORKDIR_PREFIX), { recursive: true })
  const workdir = fs.mkdtempSync(WORKDIR_PREFIX)
  try {
    return { ...await traceCopy(workdir, entry, log), copyFolder: workdir }
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true, maxRetries: 5 })
  }
}

async function traceCopy (workdir, entry, log) {
  const { entry: copy, removed } = prepareCopy(entry, workdir)
  // --warnings undoes a --no-warnings inherited through NODE_OPTIONS, which would hide the warning.
  const server = await spawnServer(copy, { nodeArgs: ['--warnings', '--trace-warnings'] })
  try {
    log(removed ? `A copy of ${shownPath(workdir, copy)} without "${removed}"` : `A copy of ${shownPath(workdir, copy)}, in which no line hid the warning,`)
    log(`is listening on ${server.url}`)
    for (let i = 1; i <= REQUESTS; i++) await get(server.url)
    log(`Sent ${REQUESTS} requests, one at a time.`)
    const warning = await waitForWarning(server.output)
    return { removed, warning: warning && shortPaths(warning, workdir), adder: warning && adderOf(warning, workdir) }
  } finally {
    await server.stop()
  }
}

function extractWarning (output) {
  const lines = output.split(/\r?\n/)
  const start = lines.findIndex((line) => line.includes('MaxListenersExceededWarning'))
  if (start === -1) return null
  const stack = []
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+at /.test(line)) break
    stack.push(line)
  }
  if (stack.length === 0) return null // the stack is still being written
  return [lines[start], ...stack].join('\n')
}

// Node prints the warning on a later tick than the 11th listener is added.
async function waitForWarning (output) {
  const deadline = Date.now() + WARNING_WAIT_MS
  while (Date.now() < deadline) {
    const warning = extractWarning(output())
    if (warning) return warning
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return null
}

function get (url) {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false }, (res) => res.resume().on('end', resolve)).on('error', reject)
  })
}

async function main (argv, { stdout, stderr }) {
  const { positionals } = parseCommandLine(argv, {}, { positionals: true })
  if (positionals.length > 1) throw new UsageError(`one server at most, got "${positionals.join(' ')}"`)
  const { entry, name } = resolveServerPath(positionals[0] ?? 'slow')
  const { removed, warning, adder } = await traceLeak({ entry, log: (line) => stdout.write(line + '\n') })
  if (!warning) {
    stderr.write(`trace-leak: no MaxListenersExceededWarning after ${REQUESTS} requests: ${name} does not pile up listeners\n`)
    return 1
  }
  stdout.write(`\n${removed ? 'With that line removed, ' : ''}Node warns:\n\n${warning}\n\n`)
  if (adder) stdout.write(`The listener is added by ${adder.functionName}, ${adder.location}.\n`)
  return 0
}

// The stack's paths as a participant reads them: in the copy, the original's; in the repo, from its root.
function shortPaths (warning, workdir) {
  return warning.replace(/^(\s+at (?:\S+ \()?)(.*?)(:\d+:\d+\)?)$/gm, (line, at, file, position) => {
    const base = [workdir, ROOT].find((dir) => file.startsWith(dir + path.sep))
    return base ? `${at}${shownPath(base, file)}${position}` : line
  })
}

// The warning's first frame in the copy: `location` relative to workdir is the original's path and line.
function adderOf (warning, workdir) {
  for (const [, functionName, file] of warning.matchAll(/^\s+at (\S+) \((.*)\)$/gm)) {
    if (file.startsWith(workdir + path.sep)) return { functionName, location: shownPath(workdir, file) }
  }
  return null
}

const command = { name: 'trace-leak', usage: USAGE, main }

module.exports = { traceLeak, command }

if (require.main === module) runAsProcess(command)
