'use strict'

// The servers the measuring tools start (bench's and bench:compare's CPU
// meter, bench/measure/load.js's taxedStart) run without a test harness's
// coverage, which this process may have (tap's, when `npm test` runs with
// coverage on) and which is set here too (NODE_V8_COVERAGE, Node's own):
// coverage makes every block a server takes cost more, and would be
// measured. The instruction meter's own run is test/bench/instruction-meter-run.test.js.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const http = require('node:http')
const { startTarget } = require('../../tooling/target-process')
const { taxedStart } = require('../../bench/measure/load')
const { withCoverageRequested } = require('./coverage-requested')

const SERVER = path.join(__dirname, 'fixtures', 'coverage-env-server.js')

// The server's answer, parsed. (http.get, not fetch: under Wine, where the
// Windows lane runs this file, undici's connect fails.)
function getJson (url) {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => { body += chunk })
      res.on('end', () => resolve(JSON.parse(body)))
    }).on('error', reject)
  })
}

t.test('a measured server gets no coverage from the harness', async (t) => {
  const coverageDir = withCoverageRequested(t, 'bench-uninstrumented')

  for (const taxMicros of [0, 5]) {
    const server = await startTarget(SERVER, taxedStart({ SOME_SETTING: '1' }, taxMicros))
    t.teardown(server.stop)
    const seen = await getJson(server.origin)
    await server.stop()
    t.equal(seen.NODE_V8_COVERAGE, null, `tax ${taxMicros} µs: no NODE_V8_COVERAGE in the server's environment`)
    t.not(seen._TAPJS_PROCESSINFO_COVERAGE_, '1', `tax ${taxMicros} µs: tap's coverage off in the server (${seen._TAPJS_PROCESSINFO_COVERAGE_})`)
  }
  t.same(fs.readdirSync(coverageDir), [], 'no coverage written for either server')
})
