'use strict'

// Property: for any If-None-Match list, fixed answers 304 exactly when the
// list holds the current tag (weak comparison) or is `*`, and the full 200
// otherwise. Lists are generated from their parts, so the expected answer is
// known without parsing the header.

const t = require('tap')
const http = require('node:http')
const fc = require('fast-check')
const { startInProcess } = require('../servers')
const { request } = require('../client')

// etagc = %x21 / %x23-7E / obs-text: everything but controls, space and DQUOTE.
const ETAGC = ['!', ...Array.from({ length: 0x7e - 0x23 + 1 }, (_, i) => String.fromCharCode(0x23 + i)), '\x80', '\xe9', '\xff']
const opaque = fc.string({ unit: fc.constantFrom(...ETAGC), maxLength: 24 })
const whitespace = fc.constantFrom('', ' ', '\t', '  ', ' \t')
const separator = fc.tuple(whitespace, fc.constantFrom(',', ', ,', ',,'), whitespace).map((parts) => parts.join(''))

function ifNoneMatchHeader (currentOpaque) {
  const member = fc.record({
    weak: fc.boolean(),
    opaque: fc.oneof({ weight: 1, arbitrary: fc.constant(currentOpaque) }, { weight: 4, arbitrary: opaque })
  })
  const list = fc.tuple(fc.array(member, { minLength: 1, maxLength: 8 }), fc.array(separator, { minLength: 8, maxLength: 8 }), whitespace, whitespace)
    .map(([members, separators, before, after]) => ({
      header: before + members.map((m, i) => (i > 0 ? separators[i] : '') + (m.weak ? 'W/' : '') + `"${m.opaque}"`).join('') + after,
      matches: members.some((m) => m.opaque === currentOpaque)
    }))
  const star = fc.tuple(whitespace, whitespace).map(([before, after]) => ({ header: `${before}*${after}`, matches: true }))
  return fc.oneof({ weight: 9, arbitrary: list }, { weight: 1, arbitrary: star })
}

t.test('fixed: 304 exactly when the list holds the current tag or is *', async (t) => {
  const { url } = await startInProcess(t, 'fixed')
  const current = await request(url)
  const currentOpaque = current.headers.etag.slice(1, -1)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  t.teardown(() => agent.destroy())

  let checked = 0
  await fc.assert(fc.asyncProperty(ifNoneMatchHeader(currentOpaque), async ({ header, matches }) => {
    const res = await request(url, { agent, headers: { 'if-none-match': header } })
    checked++
    if (matches) return res.status === 304 && res.body === '' && res.headers.etag === current.headers.etag
    return res.status === 200 && res.body === current.body
  }), { numRuns: 300 })
  t.equal(checked >= 300, true, `${checked} generated headers checked over HTTP`)
})
