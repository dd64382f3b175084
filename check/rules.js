'use strict'

// RFC 9110's rules for conditional GET in its words (shortened), and what a response breaks of them, judged
// against what the server itself sent in its first 200. The checks that ask are in checks.js.

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

// §15.4.5's fields: a 304 carries each one the 200 carried, with the same value but for the times, which move.
const NOT_MODIFIED_FIELDS = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary']
const TIME_FIELDS = new Set(['date', 'expires'])
const VALIDATORS = ['etag', 'last-modified']
// An entity-tag as RFC 9110 §8.8.3 writes it, quotes included (verify's level 2 uses it too).
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7E\x80-\xFF]*"$/

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

// Where the full 200 was due (to HEAD: the 200 without content).
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

module.exports = { RULES, ENTITY_TAG, notModifiedProblems, fullResponseProblems, headProblems }
