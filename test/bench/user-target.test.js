'use strict'

// Your own server, as docs/benchmark.md, "Your own server", describes it: any file that
// listens on PORT (and HOST) when started with `node`, benchmarked with
// --target NAME=PATH and compared with --baseline like the variants.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { bench, SHORT } = require('./bench-helper')
const { skipOffMainLine } = require('../skips')

const USER_SERVER = `'use strict'
const http = require('node:http')
http.createServer((req, res) => res.end('hello')).listen(Number(process.env.PORT), process.env.HOST)
`

// On every Node line, the run itself: the server started, measured and
// named as the variants are. The comparison with the baseline, a verdict
// on CPU time, on the main line only.
t.test('--target NAME=PATH: a server written here is benchmarked, and compared with a baseline, like the variants', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const server = path.join(dir, 'hello.js')
  fs.writeFileSync(server, USER_SERVER)
  const json = path.join(dir, 'hello.json')
  const protocol = ['--mode', 'ci', '--targets', 'node-http', '--target', `hello=${server}`, ...SHORT,
    '--rounds', '3', '--warmup', '0', '--duration', '0.5']

  const first = await bench([...protocol, '--json', json])
  t.equal(first.code, 0, first.stderr)
  t.match(first.stdout, /Protocol \(ci\): node-http, hello/)
  const result = JSON.parse(fs.readFileSync(json, 'utf8'))
  t.equal(result.runs.filter((run) => run.target === 'hello' && run.status2xx > 0).length, 3, 'three rounds of 200s')
  t.same(result.ratios.map((r) => r.name), ['hello/node-http', 'cpu hello/node-http'])

  // The same server made slower on purpose: the comparison with the
  // baseline says so, as a report (a stored CPU run is no gate on a shared
  // machine: docs/ci-gate.md).
  t.test('made slower, it is worse than the baseline', {
    skip: skipOffMainLine('the comparison with a baseline is CPU time measured')
  }, async (t) => {
    const slower = await bench([...protocol, '--baseline', json, '--alpha', '0.1', '--cpu-tax', 'hello=2000'])
    t.equal(slower.code, 0, slower.stderr)
    t.match(slower.stdout, /- cpu hello\/node-http went from the baseline's [\d.]+ to [\d.]+ \(\+\d+\.\d %\), p = 0\.050 over 3 rounds against 3: worse than the baseline/)
  })
})
