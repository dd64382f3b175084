'use strict'

// verify's level 2: the ETag belongs to the body it comes with. Three GETs, new content (through the probe of
// tooling/target-process.js), three more: the same bytes the same tag, new bytes a new one from their first response.

const { SEED_PATH } = require('../../core/seed-contract')
const { ENTITY_TAG } = require('../../check/conditional-get')
const { get } = require('./http')
const { abbreviate } = require('./abbreviate')

const title = 'Level 2: the ETag belongs to the body it comes with'
const usage = [
  'the ETag: a valid entity-tag, the same for the same bytes, new',
  'with new bytes from their first response on (not one behind)'
]
const readme = 'README, "7. An ETag that belongs to its body, and 304"'
// What it asks, said where the participant meets it: when the level below holds and this one is next.
const asks = [
  'Level 2 asks for an ETag that belongs to the body it comes with, quoted, from the first response on.',
  'README step 7 shows how.'
]
const held = 'Your ETag belongs to its body.'

// The new content: any seed other than the server's own.
const NEW_CONTENT_SEED = 'verify: new content'

async function checkEtag (server) {
  const responses = []
  const fetchThree = async () => {
    for (let i = 0; i < 3; i++) responses.push(await get(server.url))
  }
  await fetchThree()
  const replaced = await server.replaceContent(NEW_CONTENT_SEED)
  await fetchThree()
  const sent = `6 GET ${SEED_PATH}, one at a time${replaced ? ', the content replaced after the third' : ''}`
  return { checks: [...tagChecks(responses, sent), ...bodyChecks(responses, sent)] }
}

function tagChecks (responses, sent) {
  const tags = responses.map((res) => res.headers.etag)
  const untagged = tags.map((tag, i) => tag === undefined ? i + 1 : null).filter(Boolean)
  const malformed = [...new Set(tags.filter((tag) => tag !== undefined && !ENTITY_TAG.test(tag)))]
  return [{
    name: 'every 200 carries an ETag, from the first response on',
    pass: untagged.length === 0,
    sent,
    seen: untagged.length === 0 ? 'an ETag on each' : `no ETag on response ${untagged.join(', ')}`,
    hint: `name the tag before the response is sent, from what it sends; a tag stored after sending reaches only the next response (${readme})`
  }, {
    name: 'the ETag is an entity-tag: "opaque" or W/"opaque", quotes included',
    pass: tags.some((tag) => tag !== undefined) ? malformed.length === 0 : false,
    sent,
    seen: abbreviate(malformed.length === 0 ? (tags.find((tag) => tag !== undefined) ?? 'no ETag at all') : `ETag: ${malformed[0]}`),
    hint: 'RFC 9110 §8.8.3: the quotes are part of the tag, "abc" or W/"abc"'
  }]
}

function bodyChecks (responses, sent) {
  const listing = responses.map((res, i) => `${i + 1}: ${abbreviate(res.headers.etag ?? '(none)')}`).join(', ')
  const groups = groupByBody(responses)
  const unstable = groups.filter((g) => g.tags.size > 1)
  const checks = [{
    name: 'the same bytes get the same ETag',
    pass: unstable.length === 0,
    sent,
    seen: listing,
    hint: `the tag must be a function of the body sent with it (${readme})`
  }]
  if (groups.length < 2) {
    checks.push({
      name: 'new bytes get a new ETag, with the first response that carries them',
      pass: null,
      sent,
      seen: 'the body never changed: the server was not started through core/launch.js, so its content could not be replaced',
      hint: ''
    })
    return checks
  }
  const shared = groups.slice(1).find((g) => groups.some((other) => other !== g && [...g.tags].some((tag) => tag !== undefined && other.tags.has(tag))))
  const lag = shared ? describeLag(shared, responses) : null
  checks.push({
    name: 'new bytes get a new ETag, with the first response that carries them',
    pass: !shared,
    sent,
    seen: lag ?? listing,
    hint: `the ETag belongs to the previous response's body: it is computed after sending, for the next response; name it from the content you are about to send, as fixed/ does (${readme})`
  })
  return checks
}

// Responses grouped by their bytes (the minute clock may change them too): { body, first (from 1), tags }.
function groupByBody (responses) {
  const groups = []
  responses.forEach((res, i) => {
    let group = groups.find((g) => g.body === res.body)
    if (!group) groups.push(group = { body: res.body, first: i + 1, tags: new Set() })
    group.tags.add(res.headers.etag)
  })
  return groups
}

function describeLag (group, responses) {
  const tag = [...group.tags].find((t) => responses.some((res, i) => i + 1 < group.first && res.headers.etag === t))
  const next = responses.findIndex((res, i) => i + 1 > group.first && res.body === group.body && res.headers.etag !== tag)
  const ownTag = next === -1 ? null : responses[next].headers.etag
  return `response ${group.first} brought new bytes with the tag the old bytes had (${abbreviate(tag)})` +
    (ownTag ? `, response ${next + 1} the same bytes with ${abbreviate(ownTag)}: the ETag lags one response behind its body` : '')
}

module.exports = { title, usage, readme, asks, held, check: checkEtag, checkEtag }
