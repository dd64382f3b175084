'use strict'

// check:curl's checks, a row each: what it sends, what it expects, when it
// cannot be asked. conditional-get.js sends them in this order.

const { RULES, ENTITY_TAG, notModifiedProblems, fullResponseProblems, headProblems } = require('./rules')

// A resource with no current representation, which `*` must not match.
const MISSING_STATUSES = new Set([404, 410])

// `sends(context)`: { method, headers, at (another URL) }, or none to judge the first 200; `expect(response, context,
// probed)`: the rules broken; `unless(context, probed)`: why it is skipped, or null; `probe`: a request sent first.
// `context` is what the first 200 said: { url, missingUrl, first, note, etag, lastModified, mismatch, olderDate }.
const CHECKS = [
  {
    name: 'GET answers 200 with an ETag',
    expect: () => [],
    note: ({ note }) => note
  },
  {
    name: 'the ETag is an entity-tag',
    expect: (first, { etag }) => ENTITY_TAG.test(etag) ? [] : [RULES.entityTag],
    received: ({ etag }) => `ETag: ${etag}`
  },
  {
    name: 'If-None-Match with the exact tag',
    sends: ({ etag }) => ({ headers: { 'If-None-Match': etag } }),
    expect: notModified(RULES.noneMatch)
  },
  {
    name: 'If-None-Match with the tag in its other strength',
    unless: ({ etag }) => otherStrength(etag) === null ? `${etag} is not an entity-tag, so it has no other strength` : null,
    sends: ({ etag }) => ({ headers: { 'If-None-Match': otherStrength(etag) } }),
    expect: notModified(RULES.weak)
  },
  {
    name: 'If-None-Match with the tag inside a list',
    sends: ({ etag }) => ({ headers: { 'If-None-Match': `"checker-other", ${etag}` } }),
    expect: notModified(RULES.noneMatch)
  },
  {
    name: 'If-None-Match: *',
    sends: () => ({ headers: { 'If-None-Match': '*' } }),
    expect: notModified(RULES.star)
  },
  {
    name: 'If-None-Match with a tag that does not match',
    sends: ({ mismatch }) => ({ headers: { 'If-None-Match': mismatch } }),
    expect: fullResponse(RULES.mismatch)
  },
  {
    // A plain GET first: without a 404 (or 410) the question means nothing.
    name: 'If-None-Match: * on a missing resource',
    probe: ({ missingUrl }) => ({ at: missingUrl }),
    unless: ({ missingUrl }, plain) => MISSING_STATUSES.has(plain.status)
      ? null
      : `GET ${missingUrl} answered ${describe(plain)}, not 404: no missing resource to ask about (name one with --missing-url)`,
    sends: ({ missingUrl }) => ({ at: missingUrl, headers: { 'If-None-Match': '*' } }),
    expect: (starred, context, plain) => starred.status === 304 ? [`${RULES.starMissing} (without the condition: ${plain.status})`] : []
  },
  {
    name: 'HEAD is answered like GET, without content',
    sends: () => ({ method: 'HEAD' }),
    expect: (head, { first }) => headProblems(head, first)
  },
  {
    name: 'HEAD with If-None-Match with the exact tag',
    sends: ({ etag }) => ({ method: 'HEAD', headers: { 'If-None-Match': etag } }),
    expect: notModified(RULES.noneMatch)
  },
  {
    name: 'If-Modified-Since with the Last-Modified date',
    unless: withoutLastModified,
    sends: ({ lastModified }) => ({ headers: { 'If-Modified-Since': lastModified } }),
    expect: notModified(RULES.modifiedSince)
  },
  // If-None-Match over If-Modified-Since both ways: a matching tag with an older date fails a server that needs
  // both conditions; a tag that does not match with the Last-Modified date fails one that takes either.
  ...withHeadAfter({
    name: 'If-None-Match over If-Modified-Since: the exact tag, an older date',
    unless: withoutOlderDate,
    headers: ({ etag, olderDate }) => ({ 'If-None-Match': etag, 'If-Modified-Since': olderDate }),
    expect: () => notModified(RULES.precedenceMatch)
  }),
  ...withHeadAfter({
    name: 'If-None-Match over If-Modified-Since: a tag that does not match, the Last-Modified date',
    unless: withoutLastModified,
    headers: ({ mismatch, lastModified }) => ({ 'If-None-Match': mismatch, 'If-Modified-Since': lastModified }),
    expect: (method) => fullResponse(RULES.precedence, method)
  })
]

// A check sent with GET, then with HEAD ("HEAD, " before its name); `expect(method)` gives each its expectation.
function withHeadAfter ({ name, unless, headers, expect }) {
  return ['GET', 'HEAD'].map((method) => ({
    name: method === 'GET' ? name : `HEAD, ${name}`,
    unless,
    sends: (context) => ({ ...(method === 'HEAD' && { method }), headers: headers(context) }),
    expect: expect(method === 'HEAD' ? method : undefined)
  }))
}

function withoutLastModified ({ lastModified }) {
  return lastModified ? null : 'the 200 has no Last-Modified: nothing to check If-Modified-Since against'
}

function withoutOlderDate (context) {
  return withoutLastModified(context) ??
    (context.olderDate === null ? `the 200's Last-Modified, ${context.lastModified}, is not an HTTP date: no date before it to send` : null)
}

function notModified (rule) {
  return (response, { first }) => notModifiedProblems(response, first, rule)
}

function fullResponse (rule, method) {
  return (response, { first }) => fullResponseProblems(response, first, rule, method)
}

// The same opaque tag in the other strength, or null for a malformed tag.
function otherStrength (etag) {
  if (!ENTITY_TAG.test(etag)) return null
  return etag.startsWith('W/') ? etag.slice(2) : `W/${etag}`
}

function describe (response) {
  const parts = [String(response.status || 'no status')]
  if (response.headers.etag) parts.push(`ETag: ${response.headers.etag}`)
  if (response.headers['cache-control']) parts.push(`Cache-Control: ${response.headers['cache-control']}`)
  parts.push(response.body.length > 0 ? `${response.body.length} bytes of content` : 'no content')
  return parts.join(', ')
}

module.exports = { CHECKS, describe }
