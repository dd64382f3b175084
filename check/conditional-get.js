'use strict'

// Conditional GET as RFC 9110 defines it, checked against any server with
// the real curl. Every expectation comes from the RFC and from what the
// server itself sent in its first 200 (its ETag, its Last-Modified, its
// caching fields), never from this repository's own server.

const { randomBytes } = require('node:crypto')
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
  starMissing: '§13.1.2: If-None-Match: * is true when the server has no current representation, so the request is performed (a 404), never answered 304 Not Modified',
  precedence: '§13.1.3, §13.2.2: a recipient MUST ignore If-Modified-Since when the request has If-None-Match, which is evaluated first: a tag that does not match gets the 200, whatever the date',
  precedenceMatch: '§13.1.3, §13.2.2: a recipient MUST ignore If-Modified-Since when the request has If-None-Match, which is evaluated first: a tag that matches gets the 304, whatever the date'
}

// A resource with no current representation, which `*` must not match.
const MISSING_STATUSES = new Set([404, 410])
// How much older than Last-Modified the date is where only If-None-Match
// may answer 304: a day, so that no server's rounding or clock skew
// allowance makes If-Modified-Since alone answer 304.
const OLDER_BY_MS = 24 * 3600 * 1000

// If-None-Match over If-Modified-Since, both ways, for GET and HEAD: a
// matching tag with a date before Last-Modified, where If-Modified-Since
// alone would get the 200 (a server that needs both conditions, as Apache
// does, fails it), and a tag that does not match with the Last-Modified
// date, where If-Modified-Since alone would get the 304 (a server that takes
// either condition fails it).
const PRECEDENCE_STEPS = [
  { name: 'If-None-Match over If-Modified-Since: the exact tag, an older date', method: 'GET', tag: 'matching', date: 'older', notModified: true },
  { name: 'HEAD, If-None-Match over If-Modified-Since: the exact tag, an older date', method: 'HEAD', tag: 'matching', date: 'older', notModified: true },
  { name: 'If-None-Match over If-Modified-Since: a tag that does not match, the Last-Modified date', method: 'GET', tag: 'mismatching', date: 'lastModified', notModified: false },
  { name: 'HEAD, If-None-Match over If-Modified-Since: a tag that does not match, the Last-Modified date', method: 'HEAD', tag: 'mismatching', date: 'lastModified', notModified: false }
]

// §15.4.5's fields. A 304 must carry each one the 200 carried; those whose
// value is the same for the same representation must carry the same value
// (Date and Expires are times, and move with the clock).
const NOT_MODIFIED_FIELDS = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary']
const TIME_FIELDS = new Set(['date', 'expires'])
const VALIDATORS = ['etag', 'last-modified']
// An entity-tag as RFC 9110 §8.8.3 writes it, quotes included; verify's
// level 2 holds a server's ETags to it too.
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7E\x80-\xFF]*"$/

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
  const send = (method, headers = {}, at = url) => curlRequest(at, { method, headers, curl })
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

  await checkStarOnMissing(missingUrl, send, record, skip)

  const head = await send('HEAD')
  record('HEAD is answered like GET, without content', 'HEAD', head, headProblems(head, first))

  const conditionalHead = await send('HEAD', { 'If-None-Match': etag })
  record('HEAD with If-None-Match with the exact tag', `HEAD with If-None-Match: ${etag}`, conditionalHead,
    notModifiedProblems(conditionalHead, first, RULES.noneMatch))

  if (!lastModified) {
    const why = 'the 200 has no Last-Modified: nothing to check If-Modified-Since against'
    skip('If-Modified-Since with the Last-Modified date', why)
    for (const { name } of PRECEDENCE_STEPS) skip(name, why)
  } else {
    const since = await send('GET', { 'If-Modified-Since': lastModified })
    record('If-Modified-Since with the Last-Modified date', `GET with If-Modified-Since: ${lastModified}`, since,
      notModifiedProblems(since, first, RULES.modifiedSince))
    const olderDate = dateBefore(lastModified)
    const tags = { matching: etag, mismatching: mismatch }
    const dates = { older: olderDate, lastModified }
    for (const { name, method, tag, date, notModified } of PRECEDENCE_STEPS) {
      if (dates[date] === null) {
        skip(name, `the 200's Last-Modified, ${lastModified}, is not an HTTP date: no date before it to send`)
        continue
      }
      const headers = { 'If-None-Match': tags[tag], 'If-Modified-Since': dates[date] }
      const response = await send(method, headers)
      record(name, `${method} with If-None-Match: ${headers['If-None-Match']} and If-Modified-Since: ${headers['If-Modified-Since']}`, response,
        notModified
          ? notModifiedProblems(response, first, RULES.precedenceMatch)
          : fullResponseProblems(response, first, RULES.precedence, method))
    }
  }
  return { url, etag, missingUrl, steps }
}

// `*` where there is no current representation: first a plain GET, which
// must get a 404 (or 410) for the question to mean anything, then `*`.
async function checkStarOnMissing (missingUrl, send, record, skip) {
  const name = 'If-None-Match: * on a missing resource'
  const plain = await send('GET', {}, missingUrl)
  if (!MISSING_STATUSES.has(plain.status)) {
    skip(name, `GET ${missingUrl} answered ${describe(plain)}, not 404: no missing resource to ask about (name one with --missing-url)`)
    return
  }
  const starred = await send('GET', { 'If-None-Match': '*' }, missingUrl)
  record(name, `GET ${missingUrl} with If-None-Match: *`, starred,
    starred.status === 304 ? [`${RULES.starMissing} (without the condition: ${plain.status})`] : [])
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

// What is wrong with `response` where the full 200 was due (to HEAD: the
// 200 without content).
function fullResponseProblems (response, first, rule, method = 'GET') {
  const length = method === 'HEAD' ? 0 : first.body.length
  const whole = response.status === 200 && response.body.length === length
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

module.exports = { checkConditionalGet, RULES, ENTITY_TAG, CannotCheckError }
