'use strict'

// If-None-Match evaluation per RFC 9110 section 13.1.2.
//
// Written here rather than taken from `fresh` (which express uses) because
// `fresh` is built for a response cache, not an origin server: it answers
// "not fresh" whenever the request says `Cache-Control: no-cache`, lets
// If-Modified-Since veto an If-None-Match match, and splits lists on spaces
// and commas only, not tabs. RFC 9110 wants none of that at the origin.

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE ; etagc = %x21 / %x23-7E / obs-text
const ENTITY_TAG = /(?:W\/)?("[\x21\x23-\x7E\x80-\xFF]*")/y
const OWS = /[ \t]*/y
const EMPTY_ELEMENTS = /(?:,[ \t]*)*/y
const STAR = /^[ \t]*\*[ \t]*$/

/**
 * Whether an If-None-Match header value matches `currentEtag`, the entity-tag
 * of the current representation: true for `*` or for a list holding a tag
 * that is weakly equal to it (`W/"x"` matches `"x"`). A missing or malformed
 * header never matches.
 */
function ifNoneMatchMatches (header, currentEtag) {
  if (typeof header !== 'string' || header === '') return false
  if (STAR.test(header)) return true
  const wanted = opaqueTag(currentEtag)
  let matched = false
  let pos = skip(OWS, header, 0)
  while (true) {
    pos = skip(EMPTY_ELEMENTS, header, pos)
    ENTITY_TAG.lastIndex = pos
    const tag = ENTITY_TAG.exec(header)
    if (tag === null) return false
    if (tag[1] === wanted) matched = true
    pos = skip(OWS, header, ENTITY_TAG.lastIndex)
    if (pos === header.length) return matched
    if (header[pos] !== ',') return false
    pos = skip(EMPTY_ELEMENTS, header, pos)
    if (pos === header.length) return matched
  }
}

// The quoted part of an entity-tag, which is what weak comparison compares.
function opaqueTag (etag) {
  return etag.startsWith('W/') ? etag.slice(2) : etag
}

function skip (pattern, text, pos) {
  pattern.lastIndex = pos
  pattern.exec(text)
  return pattern.lastIndex
}

module.exports = { ifNoneMatchMatches }
