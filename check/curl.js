'use strict'

// One HTTP exchange made by the real curl, parsed: what `npm run check:curl`
// sees is what a user's curl sees.

const { execFile } = require('node:child_process')

const TIMEOUT_SECONDS = 10

// The check cannot start (curl missing, the server unreachable): the command exits 2 with its message.
class CannotCheckError extends Error {}

// Resolves to { status, headers (names lower case, repeats joined with ", "), body (latin1: a character a byte) }.
async function curlRequest (url, { method = 'GET', headers = {}, curl = runCurl } = {}) {
  const args = ['--silent', '--include', '--max-time', String(TIMEOUT_SECONDS)]
  if (method === 'HEAD') args.push('--head')
  for (const [name, value] of Object.entries(headers)) args.push('--header', `${name}: ${value}`)
  return parseResponse(await curl([...args, url]))
}

function parseResponse (output) {
  const end = output.indexOf('\r\n\r\n')
  const head = end === -1 ? output : output.slice(0, end)
  const [statusLine, ...lines] = head.split('\r\n')
  const headers = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value
  }
  return {
    status: Number((/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine) || [])[1]),
    headers,
    body: end === -1 ? '' : output.slice(end + 4)
  }
}

function runCurl (args) {
  return new Promise((resolve, reject) => {
    execFile('curl', args, { encoding: 'latin1', maxBuffer: 1 << 26 }, (err, stdout) => {
      if (err && err.code === 'ENOENT') {
        return reject(new CannotCheckError('curl not found: install it (apt-get install curl; macOS and Windows 10 and later ship it)'))
      }
      if (err) {
        return reject(new CannotCheckError(`curl failed (exit ${err.code}): is the server at ${args[args.length - 1]} up?`))
      }
      resolve(stdout)
    })
  })
}

module.exports = { curlRequest, CannotCheckError }
