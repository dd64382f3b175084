'use strict'

// `npm run check:curl -- [--json] [URL]`: conditional GET checked with the
// real curl against any server, one PASS, FAIL or SKIP line per step (see
// conditional-get.js for the rules). Without a URL it starts `node fixed`
// on a free port for the run.
// Exit codes: 0 nothing failed, 1 a step failed, 2 bad arguments, curl
// missing, the server unreachable or no 200 with an ETag to start from.

const { parseArgs } = require('node:util')
const { checkConditionalGet, CannotCheckError } = require('./conditional-get')
const { spawnServer } = require('../util/spawn-server')

const USAGE = `Usage: npm run check:curl -- [--json] [URL]

Checks conditional GET at URL (by default a \`node fixed\` started for the
run) with the real curl, by the rules of RFC 9110: If-None-Match with the
server's own tag, in its other strength, in a list, *, and a tag that does
not match; the fields a 304 must carry; HEAD; If-Modified-Since when the
server sends Last-Modified. --json prints the steps as JSON instead.
Exit codes: 0 nothing failed, 1 a step failed, 2 nothing could be checked.
`

async function main (argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  let options
  try {
    options = parseCommandLine(argv)
  } catch (err) {
    stderr.write(`check:curl: ${err.message}\n\n${USAGE}`)
    return 2
  }
  if (options.help) {
    stdout.write(USAGE)
    return 0
  }

  let server = null
  try {
    server = options.url ? null : await spawnServer('fixed')
    const url = options.url || server.url
    const { steps } = await checkConditionalGet(url)
    const failed = steps.filter((step) => step.outcome === 'fail').length
    if (options.json) {
      stdout.write(JSON.stringify({ url, steps, ...count(steps) }, null, 2) + '\n')
    } else {
      stdout.write(`Conditional GET checks with curl against ${url}${server ? ' (node fixed, started for this run)' : ''}\n\n`)
      stdout.write(steps.map(renderStep).join('\n') + '\n\n')
      const { passed, skipped } = count(steps)
      stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`)
    }
    return failed === 0 ? 0 : 1
  } catch (err) {
    stderr.write(`check:curl: ${err instanceof CannotCheckError ? err.message : err.stack}\n`)
    return err instanceof CannotCheckError ? 2 : 1
  } finally {
    if (server) await server.stop()
  }
}

function parseCommandLine (argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } }
  })
  if (positionals.length > 1) throw new Error(`one URL at most, got ${positionals.length}`)
  const [url] = positionals
  if (url !== undefined && !/^https?:\/\//.test(url)) throw new Error(`the URL must start with http:// or https://, got "${url}"`)
  return { url, json: values.json, help: values.help }
}

function renderStep ({ outcome, name, sent, received, broken, note }) {
  const lines = [`${outcome.toUpperCase().padEnd(4)}  ${name}`]
  if (outcome !== 'skip') lines.push(`      sent ${sent}; got ${received}`)
  for (const rule of broken) lines.push(`      broken: ${rule}`)
  if (note) lines.push(`      (${note})`)
  return lines.join('\n')
}

function count (steps) {
  const of = (outcome) => steps.filter((step) => step.outcome === outcome).length
  return { passed: of('pass'), failed: of('fail'), skipped: of('skip') }
}

module.exports = { main }

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code }, (err) => {
    console.error(`check:curl: ${err.stack}`)
    process.exitCode = 1
  })
}
