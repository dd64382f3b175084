'use strict'

// The crypto story (stories/crypto): how many key derivations each server
// runs per request, and that bad credentials get a 401 without stopping it.

const t = require('tap')
const crypto = require('node:crypto')
const http = require('node:http')
const { startInProcess } = require('../servers')
const { request } = require('../client')

const SLOW = 'stories/crypto/slow.js'
const FIXED = 'stories/crypto/fixed.js'
const basic = (userAndPassword) => ({ authorization: `Basic ${Buffer.from(userAndPassword).toString('base64')}` })
const RIGHT = basic('seed:workshop')
const WRONG = basic('seed:guess')

// Count the calls of crypto.pbkdf2Sync and crypto.pbkdf2 from now until the
// test ends, still deriving the keys.
function countDerivations (t) {
  const counts = { sync: 0, async: 0 }
  const { pbkdf2Sync, pbkdf2 } = crypto
  crypto.pbkdf2Sync = function (...args) { counts.sync++; return pbkdf2Sync.apply(this, args) }
  crypto.pbkdf2 = function (...args) { counts.async++; return pbkdf2.apply(this, args) }
  t.teardown(() => Object.assign(crypto, { pbkdf2Sync, pbkdf2 }))
  return counts
}

async function sequentially (url, count, headers, agent) {
  const statuses = []
  for (let i = 0; i < count; i++) statuses.push((await request(url, { headers, agent })).status)
  return statuses
}

async function atOnce (url, count, headers) {
  return (await Promise.all(Array.from({ length: count }, () => request(url, { headers })))).map((r) => r.status)
}

t.test('slow derives a key on the event loop for every request', async (t) => {
  const { url } = await startInProcess(t, SLOW)
  const agent = new http.Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())
  const derivations = countDerivations(t)
  t.same(await sequentially(url, 10, RIGHT, agent), Array(10).fill(200))
  t.same(await atOnce(url, 10, RIGHT), Array(10).fill(200))
  t.same(derivations, { sync: 20, async: 0 }, 'one pbkdf2Sync per request')
})

t.test('fixed derives one key per credential, off the event loop, shared by the requests that wait for it', async (t) => {
  const { url } = await startInProcess(t, FIXED)
  const agent = new http.Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())
  const derivations = countDerivations(t)
  t.same(await atOnce(url, 10, RIGHT), Array(10).fill(200), 'ten requests arriving together')
  t.same(await sequentially(url, 10, RIGHT, agent), Array(10).fill(200), 'ten more, one after another')
  t.same(derivations, { sync: 0, async: 1 }, 'one pbkdf2, on the thread pool, for twenty requests')
  t.same(await sequentially(url, 3, WRONG, agent), [401, 401, 401])
  t.same(derivations, { sync: 0, async: 2 }, 'a wrong password is derived once too, then refused from the cache')
})

for (const entry of [SLOW, FIXED]) {
  t.test(`${entry}: missing, malformed or wrong credentials get 401 with a Basic challenge; the server keeps serving`, async (t) => {
    const { url } = await startInProcess(t, entry)
    const cases = {
      none: {},
      'not Basic': { authorization: 'Bearer abc' },
      'not base64': { authorization: 'Basic !!!' },
      'no colon': basic('seedworkshop'),
      'wrong user': basic('root:workshop'),
      'wrong password': WRONG
    }
    for (const [name, headers] of Object.entries(cases)) {
      const response = await request(url, { headers })
      t.equal(response.status, 401, name)
      t.match(response.headers['www-authenticate'], /^Basic realm="seed"/, `${name}: the challenge`)
    }
    t.equal((await request(url, { headers: RIGHT })).status, 200, 'the right credentials still get in')
  })
}
