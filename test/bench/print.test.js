'use strict'

// The benchmark's rendering: what a terminal and a CI summary show.

const t = require('tap')
const { renderTable, renderRatios, renderBaselineReport, renderChart, renderVerdict } = require('../../bench/print/text')
const { renderMarkdown } = require('../../bench/print/markdown')

const summary = {
  target: 'fixed',
  requestsPerSecond: 31234.4,
  latencyP50: 2,
  latencyP975: 5,
  latencyP99: 7,
  bytesPerSecond: 314e6,
  status2xx: 312344,
  status304: 0,
  status503: 0,
  statusOther: 0,
  errors: 0,
  timeouts: 0,
  peakRssBytes: 90 * 2 ** 20,
  cpuMicrosPerRequest: 14.25
}
const ratios = [
  { name: 'fixed/fast', better: 'higher', value: 3.9, pairs: [3.8, 3.9, 4.1], goal: 3, holds: true },
  { name: 'cpu fixed/node-http', better: 'lower', value: 1.31, pairs: [1.31], goal: 1.25, holds: false },
  { name: 'fast/slow', better: 'higher', value: 215.4, pairs: [215.4], goal: null, holds: null }
]

t.test('renderTable: one aligned row per target', async (t) => {
  const lines = renderTable([summary, { ...summary, target: 'node-http', cpuMicrosPerRequest: null }]).split('\n')
  t.equal(lines.length, 4, 'header, rule, two rows')
  t.match(lines[2], /^fixed\s+31,234\s+2\.00\s+5\.00\s+7\.00\s+314\s+312,344\s+0\s+0\s+0\s+0\s+0\s+90\.0\s+14\.3$/)
  t.match(lines[3], /n\/a$/, 'a missing figure reads n/a')
  t.equal(new Set(lines.map((line) => line.length)).size, 1, 'columns aligned')
})

t.test('renderRatios: value, goal and verdict', async (t) => {
  const text = renderRatios(ratios, [
    { name: 'cpu fixed/node-http', value: 1.31, baseline: 1.2, change: 0.0917, pValue: 0.0011, rounds: 6, baselineRounds: 6, holds: false },
    { name: 'cpu api/node-http', value: 1.5, baseline: 1.4, change: 0.071, pValue: null, note: '1 rounds against 6: too few', holds: null }
  ])
  t.match(text, /fixed\/fast\s+3\.90\s+goal >= 3\s+holds\s+\(pairs: 3\.80, 3\.90, 4\.10\)/)
  t.match(text, /cpu fixed\/node-http\s+1\.31\s+goal <= 1\.25\s+SHORT/)
  t.match(text, /fast\/slow\s+215$/m, 'no goal: no verdict')
  t.match(text, /baseline cpu fixed\/node-http\s+1\.200 -> 1\.310 \(\+9\.2 %\) WORSE \(p = 0\.0011, 6 rounds against 6\)/)
  t.match(text, /baseline cpu api\/node-http\s+1\.400 -> 1\.500 \(\+7\.1 %\) CANNOT TELL \(1 rounds against 6: too few\)/)
})

t.test('renderBaselineReport: a report, the gates to use, then each finding', async (t) => {
  const note = 'a report, not a gate: use bench:compare'
  t.equal(renderBaselineReport({ note, findings: ['cpu fixed/node-http went from 1.1 to 1.2: worse than the baseline'] }),
    'Against the baseline, a report, not a gate: use bench:compare:\n  - cpu fixed/node-http went from 1.1 to 1.2: worse than the baseline')
  t.equal(renderBaselineReport({ note, findings: [] }), 'Against the baseline, a report, not a gate: use bench:compare:\n  - no CPU ratio worse than the baseline\'s')
})

t.test('renderChart: the median round, warm-up | measured, a bar per second scaled to the row peak', async (t) => {
  const text = renderChart([
    { target: 'slow', round: 1, requestsPerSecond: 30, warmupPerSecond: [0, 100], perSecond: [80, 60, 40, 20] },
    { target: 'slow', round: 2, requestsPerSecond: 10, warmupPerSecond: [], perSecond: [1] },
    { target: 'slow', round: 3, requestsPerSecond: 50, warmupPerSecond: [], perSecond: [5] },
    { target: 'fixed', round: 1, requestsPerSecond: 100, warmupPerSecond: [100], perSecond: [100, 100, 100, 100] }
  ], ['slow', 'fixed', 'fast'])
  t.match(text, /slow\s+·█\|▆▅▃▂\s+measured 80 -> 20 \/s \(round 1\)/, 'round 1 is the median; a second without a response is a dot')
  t.match(text, /fixed\s+█\|████\s+measured 100 -> 100 \/s \(round 1\)/)
  t.notMatch(text, /fast/, 'a target not run has no row')
})

t.test('renderMarkdown: the protocol, the table and the ratios', async (t) => {
  const md = renderMarkdown({
    mode: 'full',
    protocol: { connections: 100, warmup: 3, duration: 10, warmupRequests: 500, requests: 200, rounds: 3 },
    machine: { cores: 2, cpuModel: 'Test CPU', node: 'v20.20.2' },
    summaries: [summary],
    ratios
  })
  t.match(md, /^Mode `full`: autocannon -c 100, 3 s warm-up, 10 s measured \(slow: 500 \+ 200 requests\), 3 round\(s\); 2 x Test CPU, Node v20\.20\.2\./)
  t.match(md, /\n\| target \| req\/s \|.*\| CPU µs\/req \|\n\|---\|---:\|/)
  t.match(md, /\n\| fixed \| 31,234 \| 2\.00 \|/)
  t.match(md, /\n\| cpu fixed\/node-http \| 1\.31 \| ≤ 1\.25 \| \*\*short\*\* \| 1\.31 \|/)
  t.match(md, /\n\| fixed\/fast \| 3\.90 \| ≥ 3 \| holds \| 3\.80, 3\.90, 4\.10 \|/)
})

t.test('a ratio shows the digits its verdict needs', async (t) => {
  const { ratioValueText } = require('../../bench/print/numbers')
  t.equal(ratioValueText({ value: 1.9972, goal: 2, better: 'higher', holds: false }), '1.997', 'short of 2, not "2.00"')
  t.equal(ratioValueText({ value: 1.3504, goal: 1.35, better: 'lower', holds: false }), '1.3504', 'over 1.35, not "1.35"')
  t.equal(ratioValueText({ value: 2.004, goal: 2, better: 'higher', holds: true }), '2.00', 'holding and reading so: as usual')
  t.equal(ratioValueText({ value: 251.3, goal: null, better: 'higher', holds: null }), '251', 'no goal: as usual')
  t.equal(ratioValueText({ value: 10.516, goal: null, better: 'higher', holds: null }), '10.5', 'three digits between 10 and 100: not "11"')
})

t.test('the protocol says where the run ran, and warns when the machine was busy at the start', async (t) => {
  const { renderProtocol } = require('../../bench/print/text')
  const protocol = { targets: ['fixed'], connections: 100, warmup: 1, duration: 2, warmupRequests: 0, requests: 1, rounds: 1 }
  const machine = { cores: 8, usableCores: 1, cpuModel: 'AMD EPYC', memoryGiB: 24, platform: 'Linux 6.18 x64', node: 'v24.21.0', loadAverage: 0.2 }
  const quiet = renderProtocol({ mode: 'start', protocol, targets: { fixed: {} }, machine, versions: { restify: '12.0.0' } })
  t.match(quiet, 'Machine: 8 x AMD EPYC, 1 of them usable by the servers and the load generator, 24 GiB, Linux 6.18 x64')
  t.match(quiet, 'Node v24.21.0, restify 12.0.0; load average 0.20 at the start')
  t.notMatch(quiet, /warning/)
  const busy = renderProtocol({ mode: 'start', protocol, targets: { fixed: {} }, machine: { ...machine, cores: 2, usableCores: 2, loadAverage: 1.4 } })
  t.match(busy, 'all usable by the servers and the load generator')
  t.match(busy, /\n {2}warning: the machine was busy at the start \(load average 1\.40 on 2 cores\)/)
  // A load started a second ago: the 1-minute average has not caught up, the CPU sample has.
  const justStarted = renderProtocol({ mode: 'start', protocol, targets: { fixed: {} }, machine: { ...machine, cores: 2, usableCores: 2, loadAverage: 0.17, cpuBusy: 0.97 } })
  t.match(justStarted, 'load average 0.17, CPU 97 % busy at the start')
  t.match(justStarted, /\n {2}warning: the machine was busy at the start \(load average 0\.17, CPU 97 % busy on 2 cores\)/)
  const quietSample = renderProtocol({ mode: 'start', protocol, targets: { fixed: {} }, machine: { ...machine, cpuBusy: 0.04 } })
  t.match(quietSample, 'load average 0.20, CPU 4 % busy at the start')
  // A load just ended: the average still high, the CPU idle. The sample decides.
  const justEnded = renderProtocol({ mode: 'start', protocol, targets: { fixed: {} }, machine: { ...machine, cores: 2, usableCores: 2, loadAverage: 1.79, cpuBusy: 0 } })
  t.match(justEnded, 'load average 1.79, CPU 0 % busy at the start')
  t.notMatch(justEnded, /warning/, 'no warning when the CPU was idle')
  const oneCore = renderProtocol({ mode: 'start', protocol, targets: { fixed: {} }, machine: { ...machine, loadAverage: 1.26 } })
  t.match(oneCore, '(load average 1.26 on 1 core)', 'one core, not "1 cores"')
  t.notMatch(quietSample, /warning/)
})

// The ratios above with what each divides, as a run has them.
const withMetrics = (list) => list.map((r) => ({ ...r, metric: r.name.startsWith('cpu ') ? 'cpuMicrosPerRequest' : 'requestsPerSecond' }))

// Rounds of slow, fast and fixed, each second's responses as given.
function pacedRun ({ slow = [[200, 120, 90], [70, 60, 50]], fast = [[9000, 9500], [9400, 9600, 9300]], fixed = [[30000, 40000], [41000, 40500, 40800]] } = {}, extra = {}) {
  const rounds = (target, [warmupPerSecond, perSecond], round = 1) => ({ target, round, requestsPerSecond: perSecond[0], warmupPerSecond, perSecond })
  return {
    protocol: { targets: ['slow', 'fast', 'fixed'] },
    runs: [rounds('slow', slow), rounds('fast', fast), rounds('fixed', fixed), ...(extra.runs || [])],
    ratios: extra.ratios || withMetrics(ratios),
    failedChecks: extra.failedChecks || [],
    failures: extra.failures || []
  }
}

t.test('renderVerdict: how the variants fare as they run, whether the goals hold, then the figures', async (t) => {
  const lines = renderVerdict(pacedRun({}, { ratios: withMetrics(ratios).map((r) => r.holds === false ? { ...r, goal: 1.35, holds: true } : r) })).split('\n')
  t.equal(lines[0], 'slow falls as it runs. fast and fixed stay flat. Every goal holds.')
  t.same(lines.slice(1), ['  fast/slow: 215x req/s   fixed/fast: 3.90x (goal >= 3)   cpu fixed/node-http: 1.31x (goal <= 1.35)'],
    'the headline throughput, then each goal, as many to a line as fit in 100 characters')

  const short = renderVerdict(pacedRun()).split('\n')
  t.equal(short[0], 'slow falls as it runs. fast and fixed stay flat. cpu fixed/node-http falls short of its goal.')
  t.same(short.slice(1), ['  fast/slow: 215x req/s   fixed/fast: 3.90x (goal >= 3)', '  cpu fixed/node-http: 1.31x (goal <= 1.25, short)'], 'a line full at 100 characters: the next')

  const checks = renderVerdict(pacedRun({}, { ratios: [], failedChecks: ['fixed (round 1): 3 errors, expected none'] })).split('\n')
  t.same(checks, ['slow falls as it runs. fast and fixed stay flat. 1 check fails.', '  - fixed (round 1): 3 errors, expected none'])
  t.equal(renderVerdict(pacedRun({}, { ratios: [] })), 'slow falls as it runs. fast and fixed stay flat. Every check holds.', 'no goal among these targets')
})

t.test('renderVerdict: a target falls only when every round of it falls', async (t) => {
  const busy = { target: 'fixed', round: 2, requestsPerSecond: 1, warmupPerSecond: [30000, 40000], perSecond: [41000, 9000, 8000] }
  t.match(renderVerdict(pacedRun({}, { runs: [busy] })), /^slow falls as it runs\. fast and fixed stay flat\./, 'one round the machine disturbed')
  const fixedFalls = renderVerdict(pacedRun({ fixed: [[40000, 40000], [30000, 9000, 8000]] }, { runs: [{ ...busy, warmupPerSecond: [40000, 41000] }] }))
  t.match(fixedFalls, /^slow and fixed fall as they run\. fast stays flat\./, 'every round of it')
  t.match(renderVerdict(pacedRun({ slow: [[], [40]] })), /^fast and fixed stay flat\./, 'a round of one second says nothing')
})
