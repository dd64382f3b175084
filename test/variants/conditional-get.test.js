'use strict'

// fixed answers conditional GET as RFC 9110 says: one case per rule.

const t = require('tap')
const { ifNoneMatchMatches } = require('../../core/if-none-match')
const { startInProcess } = require('../servers')
const { request } = require('../client')
const { CACHE_CONTROL } = require('../../core/seed-contract')

t.test('ifNoneMatchMatches: the RFC 9110 rules', async (t) => {
  const current = '"v1.abc"'
  const cases = [
    ['"v1.abc"', true, 'the exact tag'],
    ['W/"v1.abc"', true, 'the weak form of the tag (weak comparison)'],
    ['"other", "v1.abc"', true, 'in a list with a space'],
    ['"other","v1.abc"', true, 'in a list without spaces'],
    ['"other",\t"v1.abc"', true, 'in a list with a tab (OWS)'],
    ['  "v1.abc"  ', true, 'surrounded by whitespace'],
    [', ,"v1.abc", ,', true, 'empty list elements are ignored'],
    ['"a,b", "v1.abc"', true, 'a comma inside a quoted tag is part of that tag'],
    ['*', true, 'the star matches any current representation'],
    [' * ', true, 'the star with whitespace'],
    ['"other"', false, 'another tag'],
    ['"other", W/"v2.abc"', false, 'a list without the tag'],
    ['v1.abc', false, 'unquoted: malformed'],
    ['"v1.abc', false, 'unterminated quote: malformed'],
    ['w/"v1.abc"', false, 'the weak prefix is case-sensitive'],
    ['"v1.abc" junk', false, 'trailing garbage makes the header malformed'],
    ['"v1.abc", *', false, 'the star is not a list member'],
    ['', false, 'empty'],
    [undefined, false, 'absent']
  ]
  for (const [header, expected, rule] of cases) {
    t.equal(ifNoneMatchMatches(header, current), expected, `${rule}: ${JSON.stringify(header)}`)
  }
  t.equal(ifNoneMatchMatches('"x"', 'W/"x"'), true, 'a weak current tag matches its strong form')
})

async function currentTag (url) {
  const res = await request(url)
  return { etag: res.headers.etag, body: res.body }
}

t.test('fixed: the ETag is strong, belongs to the body it comes with, from the first response on', async (t) => {
  const { url } = await startInProcess(t, 'fixed')
  const first = await request(url)
  t.match(first.headers.etag, /^"[^"]+"$/, 'a quoted, strong entity-tag')
  const again = await request(url)
  t.equal(again.headers.etag, first.headers.etag, 'same bytes, same tag')
  t.equal(again.body, first.body)
})

t.test('fixed: a matching If-None-Match answers 304 with ETag, Cache-Control and no body', async (t) => {
  const { url } = await startInProcess(t, 'fixed')
  const { etag } = await currentTag(url)
  const variants = {
    exact: etag,
    weak: `W/${etag}`,
    list: `"nope", ${etag}`,
    'list without spaces': `"nope",${etag}`,
    star: '*'
  }
  for (const [name, header] of Object.entries(variants)) {
    const res = await request(url, { headers: { 'if-none-match': header } })
    t.equal(res.status, 304, `${name}: 304`)
    t.equal(res.headers.etag, etag, `${name}: same ETag`)
    t.equal(res.headers['cache-control'], CACHE_CONTROL, `${name}: same Cache-Control`)
    t.equal(res.body, '', `${name}: no body`)
    t.equal(res.headers['content-length'], undefined, `${name}: no Content-Length`)
  }
})

t.test('fixed: anything else gets the full 200', async (t) => {
  const { url } = await startInProcess(t, 'fixed')
  const { etag, body } = await currentTag(url)
  const unquoted = etag.slice(1, -1)
  for (const header of ['"nope"', unquoted, `${etag} junk`, `"${unquoted}`, ',', 'W/', '""']) {
    const res = await request(url, { headers: { 'if-none-match': header } })
    t.equal(res.status, 200, `${JSON.stringify(header)}: 200`)
    t.equal(res.body, body, `${JSON.stringify(header)}: the full body`)
  }
})

t.test('fixed: If-None-Match takes precedence over If-Modified-Since', async (t) => {
  const { url } = await startInProcess(t, 'fixed')
  const { etag } = await currentTag(url)
  const longAgo = 'Thu, 01 Jan 1970 00:00:00 GMT'
  const future = 'Fri, 01 Jan 2100 00:00:00 GMT'
  const matching = await request(url, { headers: { 'if-none-match': etag, 'if-modified-since': longAgo } })
  t.equal(matching.status, 304, 'a matching tag wins over an old date')
  const other = await request(url, { headers: { 'if-none-match': '"nope"', 'if-modified-since': future } })
  t.equal(other.status, 200, 'a mismatching tag wins over a future date')
})

t.test('fixed: a request Cache-Control: no-cache does not stop the origin answering 304', async (t) => {
  const { url } = await startInProcess(t, 'fixed')
  const { etag } = await currentTag(url)
  const res = await request(url, { headers: { 'if-none-match': etag, 'cache-control': 'no-cache' } })
  t.equal(res.status, 304)
})

t.test('fixed: HEAD answers like GET without a body, 304 included', async (t) => {
  const { url } = await startInProcess(t, 'fixed')
  const get = await request(url)
  const head = await request(url, { method: 'HEAD' })
  t.equal(head.status, 200)
  t.equal(head.body, '', 'no body')
  for (const name of ['etag', 'cache-control', 'content-type', 'content-length']) {
    t.equal(head.headers[name], get.headers[name], `same ${name} as GET`)
  }
  const conditional = await request(url, { method: 'HEAD', headers: { 'if-none-match': get.headers.etag } })
  t.equal(conditional.status, 304)
  t.equal(conditional.headers.etag, get.headers.etag)
})

t.test('fixed: the ETag changes when the minute rolls over, and only then', async (t) => {
  const { url, clock } = await startInProcess(t, 'fixed')
  const first = await currentTag(url)
  clock.advance(59_999)
  t.equal((await currentTag(url)).etag, first.etag, 'same minute, same tag')
  clock.advance(1)
  const next = await currentTag(url)
  t.not(next.body, first.body, 'the body changed (ts)')
  t.not(next.etag, first.etag, 'so did the tag')
  const stale = await request(url, { headers: { 'if-none-match': first.etag } })
  t.equal(stale.status, 200, 'the old tag no longer matches')
  t.equal(stale.body, next.body)
})

t.test('fixed: the ETag changes when the content changes', async (t) => {
  const { url, source } = await startInProcess(t, 'fixed')
  const first = await currentTag(url)
  source.replaceContent('new content')
  const next = await currentTag(url)
  t.not(next.body, first.body)
  t.not(next.etag, first.etag)
  t.equal((await request(url, { headers: { 'if-none-match': first.etag } })).status, 200, 'the old tag no longer matches')
  t.equal((await request(url, { headers: { 'if-none-match': next.etag } })).status, 304, 'the new one does')
})

t.test('fixed: the same content and minute give the same ETag in another server', async (t) => {
  const a = await startInProcess(t, 'fixed', { seed: 'shared' })
  const b = await startInProcess(t, 'fixed', { seed: 'shared' })
  t.equal((await currentTag(b.url)).etag, (await currentTag(a.url)).etag)
})

t.test('fixed: If-None-Match: * on a missing resource is still a 404', async (t) => {
  const { origin, url } = await startInProcess(t, 'fixed')
  t.equal((await request(origin + '/nope', { headers: { 'if-none-match': '*' } })).status, 404)
  t.equal((await request(url + '?x', { headers: { 'if-none-match': '*' } })).status, 404)
})
