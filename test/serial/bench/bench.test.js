'use strict'

// The benchmark end to end, short: real targets, real autocannon load.
// It checks what the command reports and how it exits, not how fast
// anything is (that is the benchmark's own job).

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const { ROOT } = require('../../../tooling/repo')

const { bench, SHORT } = require('../../bench/bench-helper')

t.test('fixed and fixed-304: a short run reports, writes JSON and Markdown, and passes its checks', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const json = path.join(dir, 'result.json')
  const markdown = path.join(dir, 'result.md')
  const bencher = path.join(dir, 'bencher.json')
  const githubBenchmark = path.join(dir, 'github-benchmark.json')
  const { code, stdout, stderr } = await bench(['--mode', 'ci', '--targets', 'fixed,fixed-304', ...SHORT,
    '--json', json, '--markdown', markdown, '--bencher-json', bencher, '--github-benchmark-json', githubBenchmark])
  t.equal(code, 0, stderr)
  t.match(stdout, /Protocol \(ci\): fixed, fixed-304/)
  t.match(stdout, /round 1\/1 {2}fixed-304/)
  t.match(stdout, /Every check holds\.$/m, 'the verdict: no goal divides these targets, and nothing failed')

  const result = JSON.parse(fs.readFileSync(json, 'utf8'))
  t.same(result.protocol, { targets: ['fixed', 'fixed-304'], connections: 10, warmup: 0.5, duration: 1, warmupRequests: 20, requests: 10, rounds: 1 })
  t.equal(result.machine.node, process.version)
  t.ok(result.machine.cores >= 1 && result.machine.cpuModel, 'the machine is described')
  const [fixed, fixed304] = result.runs
  t.ok(fixed.status2xx > 0, 'fixed answered 200s')
  t.equal(fixed.status304, 0)
  t.ok(fixed304.status304 > 0, 'fixed-304 answered 304s')
  t.equal(fixed304.status2xx, 0, 'and nothing else')
  t.ok(fixed.cpuMicrosPerRequest > 0, 'the server CPU time per request was read')
  t.ok(fixed.peakRssBytes > 10 * 2 ** 20, 'and its peak RSS')
  t.equal(fixed.perSecond.length, 1, 'one second measured, one sample')
  t.match(fs.readFileSync(markdown, 'utf8'), /\n\| fixed-304 \| [\d,]+ \|/)
  const bencherMetrics = JSON.parse(fs.readFileSync(bencher, 'utf8'))
  t.ok(bencherMetrics.fixed['cpu-microseconds-per-request'].value > 0, 'Bencher Metric Format written')
  const githubEntries = JSON.parse(fs.readFileSync(githubBenchmark, 'utf8'))
  t.ok(githubEntries.some((e) => e.name === 'fixed - CPU per request' && e.unit === 'µs/req' && e.value > 0), 'github-action-benchmark format written')
})

t.test('node bench: bad options exit 2 with a message, --help exits 0', async (t) => {
  const bad = spawnSync(process.execPath, ['bench', '--connections', 'lots'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(bad.status, 2)
  t.match(bad.stderr, /--connections must be an integer >= 1, got "lots"/)
  t.equal(bad.stdout, '', 'nothing started')

  const missing = spawnSync(process.execPath, ['bench', '--baseline', '/nonexistent.json'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(missing.status, 2)
  t.match(missing.stderr, /cannot read the baseline \/nonexistent\.json/)

  const help = spawnSync(process.execPath, ['bench', '--help'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(help.status, 0)
  t.match(help.stdout, /Usage: node bench \[options\]/)
})
