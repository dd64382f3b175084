'use strict'

// slow and fast hash each body after it is sent and hand the hash to the
// *next* response: the ETag a client gets belongs to the previous body.

const t = require('tap')
const crypto = require('node:crypto')
const { startInProcess } = require('../servers')
const { request } = require('../client')

const sha512 = (text) => crypto.createHash('sha512').update(text).digest('hex')

for (const variant of ['slow', 'fast']) {
  t.test(`${variant}: the first response has no ETag, later ones the previous body's hash`, async (t) => {
    const { url, clock } = await startInProcess(t, variant)
    const first = await request(url)
    t.equal(first.headers.etag, undefined, 'no ETag before any body was hashed')

    clock.advance(60_000)
    const second = await request(url)
    t.not(second.body, first.body, 'the minute moved, so the body changed')
    t.equal(second.headers.etag, sha512(first.body), "the second response carries the first body's hash")
    t.not(second.headers.etag, sha512(second.body), 'which is not the hash of the body it came with')

    const third = await request(url)
    t.equal(third.headers.etag, sha512(second.body), 'and so on, one response behind')
  })

  t.test(`${variant}: If-None-Match is ignored`, async (t) => {
    const { url } = await startInProcess(t, variant)
    await request(url)
    const tagged = await request(url)
    const conditional = await request(url, { headers: { 'if-none-match': tagged.headers.etag } })
    t.equal(conditional.status, 200, 'no 304, even for the tag it just sent')
    t.ok(conditional.body.length > 10000, 'the full body again')
  })
}
