'use strict'

// Throwaway servers for the tests: a variant built in the test's own
// process, or started as `node <variant>` in a child. Each test starts its
// own server on port 0 and closes it in teardown.

require('./untapped-children')
const path = require('node:path')
const { createContentSource } = require('../core/content')
const { createMinuteClock } = require('../core/clock')
const { urlOf } = require('../core/launch')
const { SEED_PATH } = require('../core/seed-contract')
const { spawnServer } = require('../tooling/spawn-server')
const { ROOT } = require('../tooling/repo')

/**
 * A clock the test moves by hand: `now()` for createMinuteClock, `advance(ms)`.
 */
function drivenClock (start = 1_700_000_000_000) {
  let ms = start
  return { now: () => ms, advance (by) { ms += by } }
}

/**
 * Build `variant` in this test's own process, as require('./<variant>')
 * does, with a seeded content source and a driven clock, and listen on a
 * free port. Returns { server, origin, url, source, clock }.
 */
async function startInProcess (t, variant, { seed = 'test', clock = drivenClock() } = {}) {
  const createServer = require(path.join(ROOT, variant))
  const source = createContentSource({ seed })
  const server = createServer({ source, timestamp: createMinuteClock({ now: clock.now }) })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    server.server.closeAllConnections()
    server.close(resolve)
  }))
  const origin = urlOf(server)
  return { server, origin, url: origin + SEED_PATH, source, clock }
}

/**
 * Start `node <variant>` in a child process, as a user would, on a free
 * port, with `env` added. Resolves once it listens: { child, url, origin,
 * output(), stop() }. Stopped in teardown if still up.
 */
async function startChildProcess (t, variant, env = {}) {
  const server = await spawnServer(variant, { env })
  t.teardown(server.stop)
  return server
}

module.exports = { drivenClock, startInProcess, startChildProcess }
