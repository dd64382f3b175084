'use strict'

// `bench:history -- record [REF...]`: each commit counted with today's
// instruction meter, from a worktree of its own (as bench:compare counts its
// base, so an old commit is backfilled alike), its points kept in the store.

const crypto = require('node:crypto')
const path = require('node:path')
const { checkOutBase, commitOf } = require('../measure/trees')
const { countTargets, describeMeter, DEFAULTS: PROTOCOL } = require('../measure/instructions')
const { checkMeter } = require('../measure/instruction-tools')
const { describeCountingMachine } = require('../measure/meter-context')
const { countOf } = require('../judge/instructions')
const { TARGETS, targetsIn } = require('../protocol/targets')
const { UsageError } = require('../../tooling/command')
const { addPoints } = require('./store')
const { measureSideBySide } = require('../measure/side-by-side')
const { median } = require('../judge/stats')

// CPU per request beside the count, as bench:compare --meter instructions reports it: a few short
// rounds of each target alone, their median. Kept, not judged: it moves with the machine.
const CPU_ROUNDS = 3
const CPU_PROTOCOL = { warmup: 0.5, duration: 1, connections: 50, warmupRequests: 200, requests: 100 }

async function measureCpu (targets, tree) {
  const cpu = {}
  for (const target of targets) {
    const side = { ...TARGETS[target], name: 'head', entry: path.resolve(tree, TARGETS[target].entry), cwd: tree, taxMicros: 0, label: `history-${target}` }
    const rounds = []
    for (let round = 0; round < CPU_ROUNDS; round++) rounds.push((await measureSideBySide([side], CPU_PROTOCOL)).head.cpuMicrosPerRequest)
    cpu[target] = median(rounds)
  }
  return cpu
}

/**
 * What a count was made with, and the series it belongs to: the same
 * settings, Node, valgrind, C library and CPU as valgrind shows it make the
 * same `series` (a hash of them), any change another.
 */
function meterSeries (meter) {
  const { cpu, ...rest } = meter
  const counted = { ...rest, cpu: cpu?.guest ?? null }
  const series = crypto.createHash('sha256').update(JSON.stringify(counted)).digest('hex').slice(0, 12)
  return { series, about: `Node ${meter.node}, valgrind ${meter.valgrind}, ${meter.libc ?? 'an unknown C library'}, ${counted.cpu ?? 'an unknown CPU'}` }
}

// What this machine counts with (the tests give their own `meter`).
function countingContext (meter = null) {
  return meter ?? { ...describeMeter(checkMeter().valgrind, PROTOCOL), ...describeCountingMachine() }
}

/**
 * Count `refs` (default HEAD) and keep a point a target on each commit,
 * its CPU per request beside (`cpu`: null, none). `count` is countTargets'
 * shape (the tests give their own). Resolves to [{ commit, points }].
 */
async function recordCommits (refs, { root, targets = targetsIn('counted'), log = () => {}, count = countTargets, cpu = measureCpu, meter = null } = {}) {
  const commits = (refs.length > 0 ? refs : ['HEAD']).map((ref) => {
    const commit = commitOf(ref, root)
    if (commit === null) throw new UsageError(`${ref}: no such commit`)
    return { ref, commit }
  })
  const context = countingContext(meter)
  const { series, about } = meterSeries(context)
  log(`record: ${targets.join(', ')} of ${commits.length} commit(s), series ${series} (${about})`)
  const recorded = []
  for (const { ref, commit } of commits) {
    const checkout = checkOutBase(commit, { root, log })
    try {
      const counts = await count(targets, TARGETS, { trees: { head: checkout.dir }, protocol: context.protocol ?? PROTOCOL })
      const cpuMicros = cpu === null ? {} : await cpu(targets, checkout.dir)
      const points = targets.map((target) => ({
        series,
        about,
        target,
        instructionsPerRequest: countOf(counts.head[target].windows),
        ...(cpuMicros[target] > 0 ? { cpuMicrosPerRequest: Number(cpuMicros[target].toFixed(2)) } : {})
      }))
      addPoints(commit, points, { root })
      const cpuText = (point) => point.cpuMicrosPerRequest ? ` (CPU ${point.cpuMicrosPerRequest} µs)` : ''
      log(`record: ${ref} (${commit.slice(0, 12)}): ${points.map((p) => `${p.target} ${Math.round(p.instructionsPerRequest)}${cpuText(p)}`).join(', ')}`)
      recorded.push({ commit, points })
    } finally {
      checkout.remove()
    }
  }
  return recorded
}

module.exports = { recordCommits, meterSeries, countingContext, measureCpu }
