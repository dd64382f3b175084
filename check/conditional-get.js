'use strict'

// Conditional GET as RFC 9110 defines it, checked with the real curl against any server: every expectation comes
// from the RFC and the server's own first 200. checks.js has the checks, rules.js the rules; this file runs them in order.

const { randomBytes } = require('node:crypto')
const { curlRequest, CannotCheckError } = require('./curl')
const { RULES, ENTITY_TAG } = require('./rules')
const { CHECKS, describe } = require('./checks')

// A date this much before Last-Modified: no server's rounding or clock skew makes If-Modified-Since alone answer 304.
const OLDER_BY_MS = 24 * 3600 * 1000

// Resolves to { url, etag, missingUrl (should answer 404), checks: [{ name, outcome: pass | fail | skip, sent,
// received, broken, note }] }; rejects with CannotCheckError when curl, the server or a tagged 200 is missing.
async function checkConditionalGet (url, { curl, missingUrl = siblingUrl(url) } = {}) {
  const send = ({ method = 'GET', headers = {}, at = url } = {}) => curlRequest(at, { method, headers, curl })
  const { first, note } = await firstTaggedResponse(url, send)
  const etag = first.headers.etag
  const lastModified = first.headers['last-modified']
  const olderDate = lastModified ? dateBefore(lastModified) : null
  const context = { url, missingUrl, first, note, etag, lastModified, mismatch: mismatchingTag(etag), olderDate }
  const checks = []
  for (const check of CHECKS) checks.push(await runCheck(check, context, send))
  return { url, etag, missingUrl, checks }
}

async function firstTaggedResponse (url, send) {
  let first = await send()
  let note
  if (first.status === 200 && !first.headers.etag) {
    // A server may tag a representation only once it has served it (slow and fast here do).
    first = await send()
    note = 'the first 200 had no ETag; the second had one'
  }
  if (first.status !== 200 || !first.headers.etag) {
    throw new CannotCheckError(`GET ${url} answered ${describe(first)}: conditional GET needs a 200 with an ETag to start from`)
  }
  return { first, note }
}

async function runCheck (check, context, send) {
  const probed = check.probe ? await send(check.probe(context)) : null
  const why = check.unless?.(context, probed)
  if (why) return { name: check.name, outcome: 'skip', sent: '', received: '', broken: [], note: why }
  const request = check.sends?.(context)
  const response = request ? await send(request) : context.first
  const broken = check.expect(response, context, probed)
  const note = check.note?.(context)
  return {
    name: check.name,
    outcome: broken.length === 0 ? 'pass' : 'fail',
    sent: request ? describeRequest(request) : 'GET',
    received: check.received ? check.received(context) : describe(response),
    broken,
    ...(note ? { note } : {})
  }
}

function describeRequest ({ method = 'GET', headers = {}, at }) {
  const target = at === undefined ? method : `${method} ${at}`
  const fields = Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
  return fields.length === 0 ? target : `${target} with ${fields.join(' and ')}`
}

function siblingUrl (url) {
  return new URL(`checker-missing-${randomBytes(6).toString('hex')}`, url).href
}

function dateBefore (httpDate) {
  const ms = Date.parse(httpDate)
  return Number.isNaN(ms) ? null : new Date(ms - OLDER_BY_MS).toUTCString()
}

// A strong tag that matches neither `etag` nor its other strength.
function mismatchingTag (etag) {
  let tag = '"checker-mismatch"'
  while (etag.endsWith(tag)) tag = tag.replace(/"$/, '-x"')
  return tag
}

module.exports = { checkConditionalGet, CHECKS, RULES, ENTITY_TAG, CannotCheckError }
