'use strict'

// `npm run trace-leak`: the case study's debugging step, without editing the
// repo. A copy of slow/ (with core/) goes to .clinic/trace-leak/ with the
// line that sets defaultMaxListeners to Infinity removed; it runs with
// --trace-warnings under light load until Node prints the
// MaxListenersExceededWarning with its stack, which names the function that
// adds the listener.

const fs = require('node:fs')
const path = require('node:path')
const http = require('node:http')
const { spawnServer } = require('../tooling/spawn-server')
const { runAsProcess, parseCommandLine } = require('../tooling/command')
const { ROOT } = require('../tooling/repo')

const USAGE = `Usage: npm run trace-leak

Runs a copy of slow/ without the line that hides Node's
MaxListenersExceededWarning, under a few requests, and prints the warning
with its stack, which names the function that adds the listener.
Exit codes: 0 the warning was printed, 1 it was not.
`
const WORKDIR = path.join(ROOT, '.clinic', 'trace-leak')
const HIDING_LINE = /^require\('node:events'\)\.defaultMaxListeners = Infinity\n/m
const REQUESTS = 15 // Node warns at the 11th listener
const WARNING_WAIT_MS = 2000

/**
 * Copy slow/ without the line that hides the warning. Returns that line.
 */
function prepareCopy () {
  fs.rmSync(WORKDIR, { recursive: true, force: true })
  for (const dir of ['slow', 'core']) fs.cpSync(path.join(ROOT, dir), path.join(WORKDIR, dir), { recursive: true })
  const etagFile = path.join(WORKDIR, 'slow', 'etag.js')
  const source = fs.readFileSync(etagFile, 'utf8')
  const match = HIDING_LINE.exec(source)
  if (!match) throw new Error('slow/etag.js no longer sets defaultMaxListeners = Infinity: nothing to remove')
  // Blanked rather than deleted, so the stack's line numbers match slow/.
  fs.writeFileSync(etagFile, source.replace(HIDING_LINE, '// (removed by npm run trace-leak)\n'))
  return match[0].trim()
}

/**
 * Run the copy with --trace-warnings, send REQUESTS requests one after the
 * other, and resolve to { removed, warning } where `warning` is the text
 * Node printed for the MaxListenersExceededWarning (with its stack), or null.
 */
async function traceLeak ({ log = () => {} } = {}) {
  const removed = prepareCopy()
  // node_modules resolves from the repo root, two levels up from the copy.
  // --warnings undoes a --no-warnings inherited through NODE_OPTIONS (tap
  // sets one on Node 26, and a user may have one), which would hide the very
  // warning this is about: options on the command line win over NODE_OPTIONS.
  const server = await spawnServer(path.join(WORKDIR, 'slow'), { nodeArgs: ['--warnings', '--trace-warnings'] })
  try {
    log(`slow (copy without "${removed}") listening on ${server.url}`)
    for (let i = 1; i <= REQUESTS; i++) await get(server.url)
    log(`sent ${REQUESTS} requests, one at a time`)
    return { removed, warning: await waitForWarning(server.output) }
  } finally {
    await server.stop()
  }
}

// The warning line and the stack lines under it.
function extractWarning (output) {
  const lines = output.split('\n')
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
  parseCommandLine(argv, {})
  const { removed, warning } = await traceLeak({ log: (line) => stdout.write(line + '\n') })
  if (!warning) {
    stderr.write('trace-leak: no MaxListenersExceededWarning was printed\n')
    return 1
  }
  stdout.write(`\nWith "${removed}" removed, Node says:\n\n${warning}\n\n`)
  const adder = /at (attachAfterEvent) \((.*)\)/.exec(warning)
  if (adder) stdout.write(`The listener is added by ${adder[1]}, ${path.relative(WORKDIR, adder[2])}.\n`)
  return 0
}

const command = { name: 'trace-leak', usage: USAGE, main }

module.exports = { traceLeak, command }

if (require.main === module) runAsProcess(command)
