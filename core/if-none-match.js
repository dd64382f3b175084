'use strict'

// If-None-Match per RFC 9110 section 13.1.2. Not `fresh`, which is built for caches: it ignores a match
// under `Cache-Control: no-cache`, lets If-Modified-Since veto it, and does not split lists on tabs.

const ENTITY_TAG = /(?:W\/)?("[\x21\x23-\x7E\x80-\xFF]*")/y
const OWS = /[ \t]*/y
const EMPTY_ELEMENTS = /(?:,[ \t]*)*/y
const STAR = /^[ \t]*\*[ \t]*$/

// True for `*` or a listed tag weakly equal to `currentEtag`; a missing or malformed header never matches.
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

function opaqueTag (etag) {
  return etag.startsWith('W/') ? etag.slice(2) : etag
}

function skip (pattern, text, pos) {
  pattern.lastIndex = pos
  pattern.exec(text)
  return pattern.lastIndex
}

module.exports = { ifNoneMatchMatches }
