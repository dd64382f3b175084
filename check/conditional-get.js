'use strict'

// Conditional GET as RFC 9110 defines it, checked against any server with
// the real curl. Every expectation comes from the RFC and from what the
// server itself sent in its first 200 (its ETag, its Last-Modified, its
// caching fields), never from this repository's own server. The steps
// are a table (steps.js), the rules they hold a server to are in rules.js;
// this file sends the steps in order and records what came back.

const { randomBytes } = require('node:crypto')
const { curlRequest, CannotCheckError } = require('./curl')
const { RULES, ENTITY_TAG } = require('./rules')
const { STEPS, describe } = require('./steps')

// How much older than Last-Modified the date is where only If-None-Match
// may answer 304: a day, so that no server's rounding or clock skew
// allowance makes If-Modified-Since alone answer 304.
const OLDER_BY_MS = 24 * 3600 * 1000

/**
 * Check conditional GET at `url`. Resolves to { url, etag, missingUrl, steps }
 * where each step is { name, outcome: 'pass' | 'fail' | 'skip', sent,
 * received, broken: [rule texts], note }. `missingUrl` is a URL the server
 * should answer 404, where `*` must not match: by default a sibling of `url`
 * with a random name. Rejects with CannotCheckError when there is nothing
 * to check: curl missing, the server unreachable, or no 200 with an ETag.
 * `curl(args)` replaces the real curl in tests of this module.
 */
async function checkConditionalGet (url, { curl, missingUrl = siblingUrl(url) } = {}) {
  const send = ({ method = 'GET', headers = {}, at = url } = {}) => curlRequest(at, { method, headers, curl })
  const { first, note } = await firstTaggedResponse(url, send)
  const etag = first.headers.etag
  const lastModified = first.headers['last-modified']
  const olderDate = lastModified ? dateBefore(lastModified) : null
  const context = { url, missingUrl, first, note, etag, lastModified, mismatch: mismatchingTag(etag), olderDate }
  const steps = []
  for (const step of STEPS) steps.push(await runStep(step, context, send))
  return { url, etag, missingUrl, steps }
}

// The first 200 with an ETag, which every step starts from, and a note
// when it took a second GET.
async function firstTaggedResponse (url, send) {
  let first = await send()
  let note
  if (first.status === 200 && !first.headers.etag) {
    // A server may tag a representation only once it has served it (slow
    // and fast here do): ask once more before giving up.
    first = await send()
    note = 'the first 200 had no ETag; the second had one'
  }
  if (first.status !== 200 || !first.headers.etag) {
    throw new CannotCheckError(`GET ${url} answered ${describe(first)}: conditional GET needs a 200 with an ETag to start from`)
  }
  return { first, note }
}

// One row of STEPS, sent and judged: { name, outcome, sent, received, broken, note? }.
async function runStep (step, context, send) {
  const probed = step.probe ? await send(step.probe(context)) : null
  const why = step.unless?.(context, probed)
  if (why) return { name: step.name, outcome: 'skip', sent: '', received: '', broken: [], note: why }
  const request = step.sends?.(context)
  const response = request ? await send(request) : context.first
  const broken = step.expect(response, context, probed)
  const note = step.note?.(context)
  return {
    name: step.name,
    outcome: broken.length === 0 ? 'pass' : 'fail',
    sent: request ? describeRequest(request) : 'GET',
    received: step.received ? step.received(context) : describe(response),
    broken,
    ...(note ? { note } : {})
  }
}

// What a step sent, as its line shows it: "GET", "HEAD with If-None-Match:
// x", "GET <missing URL> with If-None-Match: *", fields joined by "and".
function describeRequest ({ method = 'GET', headers = {}, at }) {
  const target = at === undefined ? method : `${method} ${at}`
  const fields = Object.entries(headers).map(([name, value]) => `${name}: ${value}`)
  return fields.length === 0 ? target : `${target} with ${fields.join(' and ')}`
}

// A URL beside `url` (same folder, a random name), which a server that
// does not answer every path should answer 404.
function siblingUrl (url) {
  return new URL(`checker-missing-${randomBytes(6).toString('hex')}`, url).href
}

// An HTTP date a day before `httpDate`, or null when it is not a date.
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

module.exports = { checkConditionalGet, STEPS, RULES, ENTITY_TAG, CannotCheckError }
