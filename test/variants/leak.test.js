'use strict'

// The leak itself: slow adds an 'after' listener per request; fast and fixed
// keep the count flat. With Node's default limit of 10 listeners restored,
// only slow trips the MaxListenersExceededWarning that slow/etag.js hides.
// It counts listeners and warnings, never time, so tap runs it beside other
// files (it is not in package.json's "serial" list).

const t = require('tap')
const http = require('node:http')
const events = require('node:events')
const { startInProcess } = require('../servers')
const { request } = require('../client')

const NODE_DEFAULT_MAX_LISTENERS = 10

async function serveRequests (url, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 })
  try {
    const pending = []
    for (let i = 0; i < count; i++) pending.push(request(url, { agent }))
    const statuses = (await Promise.all(pending)).map((res) => res.status)
    return statuses.filter((status) => status === 200).length
  } finally {
    agent.destroy()
  }
}

// Collect the process warnings emitted while `fn` runs, with Node's default
// listener limit in force (the variants' modules set it to Infinity). Node's
// own printer of warnings (a 'warning' listener, onWarning) is detached
// meanwhile: the warning slow trips here is the one this test wants, and
// printed among npm test's output it would read as something gone wrong.
async function warningsDuring (t, fn) {
  const warnings = []
  const onWarning = (warning) => warnings.push(warning)
  const configured = events.defaultMaxListeners
  const printers = process.listeners('warning')
  events.defaultMaxListeners = NODE_DEFAULT_MAX_LISTENERS
  process.removeAllListeners('warning')
  process.on('warning', onWarning)
  t.teardown(() => {
    events.defaultMaxListeners = configured
    process.off('warning', onWarning)
    for (const printer of printers) process.on('warning', printer)
  })
  await fn()
  await new Promise((resolve) => setImmediate(resolve)) // warnings are emitted on a later tick
  return warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')
}

t.test('slow: one more after listener per request served', async (t) => {
  const { server, url } = await startInProcess(t, 'slow')
  const before = server.listenerCount('after')
  const served = await serveRequests(url, 200)
  t.equal(served, 200)
  t.equal(server.listenerCount('after') - before, served, 'listeners added = requests served')
})

t.test('slow: with the default limit, Node warns about the leak', async (t) => {
  const { url } = await startInProcess(t, 'slow')
  const warnings = await warningsDuring(t, () => serveRequests(url, 20))
  t.equal(warnings.length, 1, 'one MaxListenersExceededWarning')
  t.match(warnings[0].message, /11 after listeners added/)
})

for (const variant of ['fast', 'fixed']) {
  t.test(`${variant}: the after listener count stays flat over 1000 requests, no warning`, async (t) => {
    const { server, url } = await startInProcess(t, variant)
    await request(url) // fast adds its one listener on the first request
    const settled = server.listenerCount('after')
    let served
    const warnings = await warningsDuring(t, async () => { served = await serveRequests(url, 1000) })
    t.equal(served, 1000)
    t.equal(server.listenerCount('after'), settled, 'no listener added')
    t.ok(settled <= 1, `at most one after listener (${settled})`)
    t.same(warnings, [], 'no MaxListenersExceededWarning')
  })
}
