'use strict'

// Conditional GET as RFC 9110 defines it, checked against any server with
// the real curl. Every expectation comes from the RFC and from what the
// server itself sent in its first 200 (its ETag, its Last-Modified, its
// caching fields), never from this repository's own server.

const { curlRequest, CannotCheckError } = require('./curl')

// The rules a step can break, in the RFC's words (shortened).
const RULES = {
  entityTag: '§8.8.3: an entity-tag is a quoted opaque string, "xyzzy", or the same prefixed with W/ when weak',
  noneMatch: '§13.1.2: when a listed entity-tag matches the current one (weak comparison), the condition is false and a GET or HEAD is answered 304 Not Modified',
  weak: '§8.8.3.2: If-None-Match uses the weak comparison: W/"x" and "x" match, whatever the strength of either',
  star: '§13.1.2: If-None-Match: * is false whenever the server has a current representation: 304 Not Modified',
  mismatch: '§13.1.2: when no listed entity-tag matches, the condition is true and the request is performed: a 200 with the representation',
  notModified: '§15.4.5: a 304 has no content, and sends the fields among Cache-Control, Content-Location, Date, ETag, Expires and Vary that a 200 to the same request would have sent',
  head: '§9.3.2: HEAD is answered like GET, with the same status and validator fields, but without content',
  modifiedSince: '§13.1.3: when the representation was last modified no later than the If-Modified-Since date, a GET or HEAD is answered 304 Not Modified',
  precedence: '§13.2.2: If-None-Match is evaluated before If-Modified-Since, which is ignored when If-None-Match is present: a tag that does not match gets the 200'
}

// §15.4.5's fields. A 304 must carry each one the 200 carried; those whose
// value is the same for the same representation must carry the same value
// (Date and Expires are times, and move with the clock).
const NOT_MODIFIED_FIELDS = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary']
const TIME_FIELDS = new Set(['date', 'expires'])
const VALIDATORS = ['etag', 'last-modified']
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7E\x80-\xFF]*"$/

/**
 * Check conditional GET at `url`. Resolves to { url, etag, steps } where each
 * step is { name, outcome: 'pass' | 'fail' | 'skip', sent, received, broken:
 * [rule texts], note }. Rejects with CannotCheckError when there is nothing
 * to check: curl missing, the server unreachable, or no 200 with an ETag.
 * `curl(args)` replaces the real curl in tests of this module.
 */
async function checkConditionalGet (url, { curl } = {}) {
  const send = (method, headers = {}) => curlRequest(url, { method, headers, curl })
  let first = await send('GET')
  let note
  if (first.status === 200 && !first.headers.etag) {
    // A server may tag a representation only once it has served it (slow
    // and fast here do): ask once more before giving up.
    first = await send('GET')
    note = 'the first 200 had no ETag; the second had one'
  }
  if (first.status !== 200 || !first.headers.etag) {
    throw new CannotCheckError(`GET ${url} answered ${describe(first)}: conditional GET needs a 200 with an ETag to start from`)
  }

  const etag = first.headers.etag
  const lastModified = first.headers['last-modified']
  const steps = []
  const record = (name, sent, response, broken, extra = {}) => steps.push({
    name,
    outcome: broken.length === 0 ? 'pass' : 'fail',
    sent,
    received: describe(response),
    broken,
    ...extra
  })

  const skip = (name, why) => steps.push({ name, outcome: 'skip', sent: '', received: '', broken: [], note: why })

  record('GET answers 200 with an ETag', 'GET', first, [], note ? { note } : {})
  const broken = ENTITY_TAG.test(etag) ? [] : [RULES.entityTag]
  steps.push({
    name: 'the ETag is an entity-tag',
    outcome: broken.length === 0 ? 'pass' : 'fail',
    sent: 'GET',
    received: `ETag: ${etag}`,
    broken
  })

  const matching = [
    ['If-None-Match with the exact tag', etag, RULES.noneMatch],
    ['If-None-Match with the tag in its other strength', otherStrength(etag), RULES.weak],
    ['If-None-Match with the tag inside a list', `"checker-other", ${etag}`, RULES.noneMatch],
    ['If-None-Match: *', '*', RULES.star]
  ]
  for (const [name, value, rule] of matching) {
    if (value === null) {
      skip(name, `${etag} is not an entity-tag, so it has no other strength`)
      continue
    }
    const response = await send('GET', { 'If-None-Match': value })
    record(name, `GET with If-None-Match: ${value}`, response, notModifiedProblems(response, first, rule))
  }

  const mismatch = mismatchingTag(etag)
  const other = await send('GET', { 'If-None-Match': mismatch })
  record('If-None-Match with a tag that does not match', `GET with If-None-Match: ${mismatch}`, other,
    fullResponseProblems(other, first, RULES.mismatch))

  const head = await send('HEAD')
  record('HEAD is answered like GET, without content', 'HEAD', head, headProblems(head, first))

  const conditionalHead = await send('HEAD', { 'If-None-Match': etag })
  record('HEAD with If-None-Match with the exact tag', `HEAD with If-None-Match: ${etag}`, conditionalHead,
    notModifiedProblems(conditionalHead, first, RULES.noneMatch))

  if (!lastModified) {
    const why = 'the 200 has no Last-Modified: nothing to check If-Modified-Since against'
    skip('If-Modified-Since with the Last-Modified date', why)
    skip('If-None-Match takes precedence over If-Modified-Since', why)
  } else {
    const since = await send('GET', { 'If-Modified-Since': lastModified })
    record('If-Modified-Since with the Last-Modified date', `GET with If-Modified-Since: ${lastModified}`, since,
      notModifiedProblems(since, first, RULES.modifiedSince))
    const both = await send('GET', { 'If-None-Match': mismatch, 'If-Modified-Since': lastModified })
    record('If-None-Match takes precedence over If-Modified-Since',
      `GET with If-None-Match: ${mismatch} and If-Modified-Since: ${lastModified}`, both,
      fullResponseProblems(both, first, RULES.precedence))
  }
  return { url, etag, steps }
}

// What is wrong with `response` where a 304 was due: the rule `rule` when it
// is not a 304; §15.4.5 when a 304 has content or lacks the 200's fields.
function notModifiedProblems (response, first, rule) {
  if (response.status !== 304) return [rule]
  const missing = []
  for (const field of NOT_MODIFIED_FIELDS) {
    if (!(field in first.headers)) continue
    if (!(field in response.headers)) missing.push(`no ${field}`)
    else if (!TIME_FIELDS.has(field) && response.headers[field] !== first.headers[field]) {
      missing.push(`${field} ${response.headers[field]} where the 200 had ${first.headers[field]}`)
    }
  }
  if (response.body.length > 0) missing.push(`${response.body.length} bytes of content`)
  return missing.length === 0 ? [] : [`${RULES.notModified} (this 304: ${missing.join(', ')})`]
}

// What is wrong with `response` where the full 200 was due.
function fullResponseProblems (response, first, rule) {
  const whole = response.status === 200 && response.body.length === first.body.length
  return whole ? [] : [rule]
}

function headProblems (head, first) {
  const differences = []
  if (head.status !== first.status) differences.push(`status ${head.status} where GET had ${first.status}`)
  for (const field of VALIDATORS) {
    if (head.headers[field] !== first.headers[field]) {
      differences.push(`${field} ${head.headers[field] || 'missing'} where GET had ${first.headers[field] || 'none'}`)
    }
  }
  if (head.body.length > 0) differences.push(`${head.body.length} bytes of content`)
  return differences.length === 0 ? [] : [`${RULES.head} (this HEAD: ${differences.join(', ')})`]
}

// The same opaque tag in the other strength, or null for a malformed tag.
function otherStrength (etag) {
  if (!ENTITY_TAG.test(etag)) return null
  return etag.startsWith('W/') ? etag.slice(2) : `W/${etag}`
}

// A strong tag that matches neither `etag` nor its other strength.
function mismatchingTag (etag) {
  let tag = '"checker-mismatch"'
  while (etag.endsWith(tag)) tag = tag.replace(/"$/, '-x"')
  return tag
}

function describe (response) {
  const parts = [String(response.status || 'no status')]
  if (response.headers.etag) parts.push(`ETag: ${response.headers.etag}`)
  if (response.headers['cache-control']) parts.push(`Cache-Control: ${response.headers['cache-control']}`)
  parts.push(response.body.length > 0 ? `${response.body.length} bytes of content` : 'no content')
  return parts.join(', ')
}

module.exports = { checkConditionalGet, RULES, CannotCheckError }
