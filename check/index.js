'use strict'

// `npm run check:curl -- [--json] [--missing-url URL] [URL]`: conditional GET checked with the real curl, a PASS,
// FAIL or SKIP line per check; without a URL, against a `node fixed` started for the run. Exit codes: 0 nothing
// failed, 1 a check failed, 2 bad arguments, curl missing, the server unreachable or no 200 with an ETag.

const { checkConditionalGet, CannotCheckError } = require('./conditional-get')
const { spawnServer } = require('../tooling/spawn-server')
const { runAsProcess, parseCommandLine, UsageError } = require('../tooling/command')
const { wrapLine } = require('../tooling/wrap-text')

const USAGE = `Usage: npm run check:curl -- [--json] [--missing-url URL] [URL]

Checks conditional GET at URL (by default a \`node fixed\` started for the
run) with the real curl, by the rules of RFC 9110: If-None-Match with the
server's own tag, in its other strength, in a list, *, and a tag that does
not match; * on a missing resource; the fields a 304 must carry; HEAD;
If-Modified-Since, and If-None-Match's precedence over it both ways, when
the server sends Last-Modified. --json prints the checks as JSON instead.
--missing-url names a URL the server answers 404, for the * check (by
default one beside URL with a random name).
Exit codes: 0 nothing failed, 1 a check failed, 2 nothing could be checked.
`

async function main (argv, { stdout, stderr }) {
  const options = parseCheckCommandLine(argv)
  let server = null
  try {
    server = options.url ? null : await spawnServer('fixed')
    const url = options.url || server.url
    const { checks, missingUrl } = await checkConditionalGet(url, options.missingUrl ? { missingUrl: options.missingUrl } : {})
    const { passed, failed, skipped } = count(checks)
    if (options.json) {
      stdout.write(JSON.stringify({ url, missingUrl, checks, passed, failed, skipped }, null, 2) + '\n')
    } else {
      stdout.write(`Conditional GET checked with curl at ${url}${server ? ' (node fixed, started for this run)' : ''}\n`)
      stdout.write(`A missing resource for the * check: ${missingUrl}\n\n`)
      stdout.write(checks.map(renderCheck).join('\n') + '\n\n')
      // The verdict first; the counts last, in the form CI greps for.
      stdout.write(renderVerdict(checks) + '\n')
      stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`)
    }
    return failed === 0 ? 0 : 1
  } catch (err) {
    if (!(err instanceof CannotCheckError)) throw err
    // Not a usage error, and not a failed check: nothing could be checked.
    stderr.write(`check:curl: ${err.message}\n`)
    return 2
  } finally {
    if (server) await server.stop()
  }
}

function parseCheckCommandLine (argv) {
  const { values, positionals } = parseCommandLine(argv, {
    json: { type: 'boolean', default: false },
    'missing-url': { type: 'string' }
  }, { positionals: true })
  if (positionals.length > 1) throw new UsageError(`one URL at most, got ${positionals.length}`)
  const [url] = positionals
  if (url !== undefined && !isHttpUrl(url)) throw new UsageError(`the URL must start with http:// or https://, got "${url}"`)
  const missingUrl = values['missing-url']
  if (missingUrl !== undefined && !isHttpUrl(missingUrl)) {
    throw new UsageError(`--missing-url must start with http:// or https://, got "${missingUrl}"`)
  }
  return { url, missingUrl, json: values.json }
}

function isHttpUrl (text) {
  return /^https?:\/\//.test(text)
}

// What was sent and what came back on lines of their own, whole (a 200 with its tag runs to 108
// characters); a rule or a note, broken at about 100.
function renderCheck ({ outcome, name, sent, received, broken, note }) {
  const lines = [`${outcome.toUpperCase().padEnd(4)}  ${name}`]
  if (outcome !== 'skip') lines.push(`      sent ${sent}`, `      got ${received}`)
  for (const rule of broken) lines.push(wrapLine('      broken: ', rule))
  if (note) lines.push(wrapLine('      (', `${note})`))
  return lines.join('\n')
}

// Which of RFC 9110's sections the server breaks, by the § numbers its failed checks name.
function renderVerdict (checks) {
  const sections = [...new Set(checks.flatMap((check) => check.broken).flatMap((rule) => rule.split(':')[0].match(/§[\d.]+\d/g) || []))]
  if (sections.length === 0) return 'The server answers conditional GET as RFC 9110 says.'
  const listed = sections.length === 1 ? sections[0] : `${sections.slice(0, -1).join(', ')} and ${sections[sections.length - 1]}`
  return wrapLine('', `The server breaks RFC 9110 ${listed}: each FAIL above says how.`)
}

function count (checks) {
  const of = (outcome) => checks.filter((check) => check.outcome === outcome).length
  return { passed: of('pass'), failed: of('fail'), skipped: of('skip') }
}

const command = { name: 'check:curl', usage: USAGE, main }

module.exports = { command }

if (require.main === module) runAsProcess(command)
