'use strict'

// The instruction meter on a real server under real valgrind: fixed
// counted twice at once, once with bench/measure/work-tax.js adding
// 100,000 instructions of work to each request. The tax must show up as
// that many instructions (within 10 %): the meter counts the request path
// and the tax costs what it says. A short protocol, so the counts are not
// settled the way a gate's are (docs/instructions.md has those); on the main
// Node line only (.nvmrc's, test/skips.js): a count moves with the line.
// Counted with a test harness's coverage in this process's environment, as
// under `npm test` with tap's coverage on, and NODE_V8_COVERAGE (Node's
// own) set here too: the counted process must run without it
// (bench/measure/uninstrumented.js), or V8's block counters are counted in
// the tax's loop (700,288 read for 100,000). The meter kills each valgrind
// with SIGKILL, so valgrind cannot remove its vgdb FIFOs itself: none of
// them may be left in the temporary folder, where every run once left three.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const diagnosticsChannel = require('node:diagnostics_channel')
const { countTargets } = require('../../bench/measure/instructions')
const { checkMeter, MeterUnavailable } = require('../../bench/measure/instruction-tools')
const { TARGETS } = require('../../bench/protocol/targets')
const { countOf } = require('../../bench/judge/instructions')
const { ROOT } = require('../../tooling/repo')
const { skipOffMainLine } = require('../skips')
const { withCoverageRequested } = require('./coverage-requested')

// Two servers under valgrind, 20 to 40 s: more than tap's 30 s a file.
t.setTimeout(180000)

const TAX = 100000
const SHORT = { warmupRequests: 300, settleRequests: 200, windows: 3, windowRequests: 50, leakingWarmupRequests: 0, leakingWindowRequests: 1 }

function meterMissing () {
  try {
    checkMeter()
    return false
  } catch (err) {
    if (err instanceof MeterUnavailable) return err.message
    throw err
  }
}

t.test('fixed counted under valgrind, and a tax of work counted as what it asks', {
  skip: skipOffMainLine('an instruction count is a measurement') || meterMissing()
}, async (t) => {
  withCoverageRequested(t, 'instruction-meter-run')
  const valgrinds = startedValgrinds(t)
  const counts = await countTargets(['fixed'], TARGETS, { trees: { clean: ROOT, taxed: ROOT }, taxes: { fixed: TAX }, taxedSide: 'taxed', protocol: SHORT })
  const clean = counts.clean.fixed.windows
  const taxed = counts.taxed.fixed.windows
  t.equal(clean.length, 3, 'three windows')
  for (const window of clean) t.ok(window > 20000 && window < 1000000, `fixed: ${Math.round(window)} instructions per request, a plausible count`)
  const added = countOf(taxed) - countOf(clean)
  t.ok(Math.abs(added / TAX - 1) < 0.1, `the tax added ${Math.round(added)} instructions per request (${TAX} asked)`)
  const pids = valgrinds()
  t.equal(pids.length, 2, 'two processes counted, each under its own valgrind')
  t.same(vgdbFilesOf(pids), [], 'no vgdb FIFO or shared-memory file of the run\'s valgrinds left behind')
})

// The processes of this test started as `valgrind ...`: a function that
// returns their PIDs, the PIDs valgrind names its vgdb files by. Node
// publishes every child on this channel as it is made, before it has a
// PID, hence read at the end.
function startedValgrinds (t) {
  const children = []
  const onChild = ({ process: child }) => children.push(child)
  diagnosticsChannel.subscribe('child_process', onChild)
  t.teardown(() => diagnosticsChannel.unsubscribe('child_process', onChild))
  return () => children.filter((child) => child.spawnfile === 'valgrind' && child.pid !== undefined).map((child) => child.pid)
}

// valgrind's files for `pids` (vgdb-pipe-from-vgdb-to-PID-by-USER-on-HOST
// and the like) in the temporary folder and in /tmp, its default prefix's.
function vgdbFilesOf (pids) {
  const named = new RegExp(`^vgdb-pipe-.*-(${pids.join('|')})-by-`)
  return [...new Set([os.tmpdir(), '/tmp'])].flatMap((dir) => fs.readdirSync(dir).filter((name) => named.test(name)).map((name) => `${dir}/${name}`))
}
