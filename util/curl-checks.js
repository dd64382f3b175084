'use strict'

// `npm run check:curl -- [URL]`: walks conditional GET with the real curl,
// one PASS/FAIL line per step. Without a URL it starts `node fixed` on a
// free port for the run. Exit codes: 0 all passed, 1 a step failed, 2 curl
// missing or the server unreachable.

const { execFile } = require('node:child_process')
const { spawnServer } = require('./spawn-server')

const CACHE_CONTROL = 'public, max-age=120'

/**
 * Run the steps against `url`. Resolves to [{ name, pass, detail }].
 * `curl(args)` runs curl and resolves to its stdout.
 */
async function runCurlChecks (url, { curl = runCurl } = {}) {
  const results = []
  const step = (name, pass, detail) => results.push({ name, pass, detail })

  let first = await request(curl, url)
  if (first.status === 200 && !first.headers.etag) {
    // slow and fast tag a response with the previous one's hash: the very
    // first response has none, so give them a second chance.
    first = await request(curl, url)
  }
  const etag = first.headers.etag
  step('GET answers 200 with an ETag', first.status === 200 && Boolean(etag),
    `${first.status}, ETag ${etag || 'missing'}`)
  if (!etag) return results
  if (!/^(W\/)?"[^"]*"$/.test(etag)) step('the ETag is a quoted entity-tag', false, `${etag} has no quotes`)

  const conditional = [
    ['exact', etag],
    ['weak', `W/${etag}`],
    ['in a list', `"other", ${etag}`],
    ['star', '*']
  ]
  for (const [kind, value] of conditional) {
    const res = await request(curl, url, ['-H', `If-None-Match: ${value}`])
    checkNotModified(step, `If-None-Match ${kind} (${value}) answers 304`, res, etag)
  }

  const mismatch = await request(curl, url, ['-H', 'If-None-Match: "other"'])
  step('If-None-Match "other" answers the full 200', mismatch.status === 200 && mismatch.body.length === first.body.length,
    `${mismatch.status}, ${mismatch.body.length} body bytes (GET had ${first.body.length})`)

  const head = await request(curl, url, ['-I'])
  step('HEAD answers 200 like GET, without a body',
    head.status === 200 && head.body.length === 0 && head.headers.etag === etag &&
      head.headers['content-length'] === first.headers['content-length'],
    `${head.status}, ETag ${head.headers.etag || 'missing'}, Content-Length ${head.headers['content-length'] || 'missing'}`)

  const conditionalHead = await request(curl, url, ['-I', '-H', `If-None-Match: ${etag}`])
  checkNotModified(step, 'HEAD with If-None-Match answers 304', conditionalHead, etag)
  return results
}

function checkNotModified (step, name, res, etag) {
  const problems = []
  if (res.status !== 304) problems.push(`status ${res.status}${res.status === 200 ? ': If-None-Match is not answered' : ''}`)
  if (res.headers.etag !== etag) problems.push(`ETag ${res.headers.etag || 'missing'}`)
  if (res.headers['cache-control'] !== CACHE_CONTROL) problems.push(`Cache-Control ${res.headers['cache-control'] || 'missing'}`)
  if (res.body.length > 0) problems.push(`${res.body.length} body bytes`)
  step(name, problems.length === 0, problems.length === 0 ? '304, same ETag and Cache-Control, no body' : problems.join(', '))
}

// One request with curl -i: resolves to { status, headers, body }.
async function request (curl, url, args = []) {
  const output = await curl(['-s', '-i', '--max-time', '10', ...args, url])
  const end = output.indexOf('\r\n\r\n')
  const head = end === -1 ? output : output.slice(0, end)
  const [statusLine, ...lines] = head.split('\r\n')
  const headers = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return {
    status: Number((/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine) || [])[1]),
    headers,
    body: end === -1 ? '' : output.slice(end + 4)
  }
}

function runCurl (args) {
  return new Promise((resolve, reject) => {
    execFile('curl', args, { encoding: 'latin1', maxBuffer: 1 << 24 }, (err, stdout) => {
      if (err && err.code === 'ENOENT') return reject(Object.assign(new Error('curl not found: install it (e.g. apt-get install curl)'), { exitCode: 2 }))
      if (err) return reject(Object.assign(new Error(`curl failed (exit ${err.code}): is the server at ${args[args.length - 1]} up?`), { exitCode: 2 }))
      resolve(stdout)
    })
  })
}

async function main (argv) {
  const [givenUrl] = argv
  const server = givenUrl ? null : await spawnServer('fixed')
  const url = givenUrl || server.url
  console.log(`Conditional GET checks with curl against ${url}${server ? ' (node fixed, started for this run)' : ''}`)
  try {
    const results = await runCurlChecks(url)
    for (const { name, pass, detail } of results) console.log(`${pass ? 'PASS' : 'FAIL'}  ${name}: ${detail}`)
    const failed = results.filter((r) => !r.pass).length
    console.log(failed === 0 ? `all ${results.length} steps passed` : `${failed} of ${results.length} steps failed`)
    return failed === 0 ? 0 : 1
  } catch (err) {
    console.error(`check:curl: ${err.message}`)
    return err.exitCode || 1
  } finally {
    if (server) server.stop()
  }
}

module.exports = { runCurlChecks }

if (require.main === module) main(process.argv.slice(2)).then((code) => { process.exitCode = code })
