'use strict'

// A short soak (3 s) of each kind: fixed holds steady, slow shows its leak.
// The full soak is `npm run soak -- <variant>` (60 s by default).

const t = require('tap')
const { soak } = require('../../soak')

const CONNECTIONS = 10

t.test('fixed: no errors, flat retained heap, no listeners', async (t) => {
  const report = await soak('fixed', { duration: 3, connections: CONNECTIONS })
  t.ok(report.requests > 1000, `${report.requests} requests`)
  t.ok(report.samples.length >= 3, `${report.samples.length} memory samples`)
  for (const check of report.checks) t.ok(check.pass, `${check.name}: ${check.detail}`)
})

t.test('slow: the after listeners grow with the requests served', async (t) => {
  const report = await soak('slow', { duration: 3, connections: CONNECTIONS })
  const last = report.samples[report.samples.length - 1]
  t.ok(last.requests > 20, `${last.requests} responses`)
  t.ok(last.afterListeners >= last.requests, `${last.afterListeners} listeners for ${last.requests} responses`)
  t.ok(last.afterListeners <= last.requests + CONNECTIONS, 'at most one more per connection still in flight')
  t.match(report.checks[0].detail, /after listeners after \d+ responses/)
})
