'use strict'

// The instruction meter: what one request costs a target in instructions (callgrind), which says whether the code changed where CPU time
// moves with the machine. Here: the counts over targets and trees, and what a count depends on (docs/instructions.md, "The instruction meter").

const os = require('node:os')
const path = require('node:path')
const { V8_FLAGS, NOT_COUNTED, POLL, CALLS_LEFT_OUT } = require('./callgrind')
const { MeterUnavailable } = require('./instruction-tools')
const { countInstructions, FROZEN_CLOCK, DEFAULTS } = require('./instruction-count')

// Loaded on both sides, with no work on the untaxed one, so that the hook's own cost is on both.
const WORK_TAX = path.join(__dirname, 'work-tax.js')

// What a count depends on, recorded with it: a stored baseline is judged only where it matches. slow's protocol follows the CPU meter's `load`.
function describeMeter (valgrind, load) {
  return {
    node: process.version,
    valgrind,
    v8Flags: V8_FLAGS,
    notCounted: [...NOT_COUNTED, `${POLL} but its callbacks`, ...Object.keys(CALLS_LEFT_OUT).map((kind) => `calls to the ${kind} (${describeCalls(CALLS_LEFT_OUT[kind])})`)],
    clock: `frozen at ${FROZEN_CLOCK.at} (libfaketime)`,
    protocol: { ...DEFAULTS, leakingWarmupRequests: load.warmupRequests, leakingWindowRequests: Math.max(1, Math.floor(load.requests / DEFAULTS.windows)) }
  }
}

function describeCalls ({ object, functions }) {
  return `${functions === null ? 'every function' : [...functions].join(', ')} of ${object.source}`
}

// Counts `targets` from every tree of `trees` ({ side: folder }), `parallel` processes at a time (each one thread under valgrind). Targets started alike share
// a process, a start under valgrind being most of a count; a leaking target (slow) is counted at its own request counts, its cost growing with each.
async function countTargets (targets, definitions, { trees, taxes = {}, taxedSide = null, protocol = DEFAULTS, onCount = () => {}, parallel = os.availableParallelism() }) {
  for (const target of targets) {
    if (definitions[target].processTree) throw new MeterUnavailable(`${target} runs as several processes: the instruction meter counts one`)
  }
  const servers = groupByServer(targets, definitions, taxes)
  const jobs = servers.flatMap((server) => Object.keys(trees).map((side) => ({ server, side })))
  const counts = Object.fromEntries(Object.keys(trees).map((side) => [side, {}]))
  const next = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const { server: { entry, env, stdout, leaking, taxed, targets: together }, side } = job
      const count = await countInstructions(entry, {
        cwd: trees[side],
        env: taxed ? { ...env, WORK_TAX_INSTRUCTIONS: String(side === taxedSide ? taxes[together[0]] : 0) } : env,
        nodeArgs: taxed ? ['-r', WORK_TAX] : [],
        requests: together.map((target) => ({ name: target, headers: definitions[target].headers, conditional: definitions[target].conditional })),
        stdout,
        label: `${side}-${together.join('+')}`,
        protocol: leaking
          ? { warmupRequests: protocol.leakingWarmupRequests, settleRequests: 0, windows: protocol.windows, windowRequests: protocol.leakingWindowRequests }
          : protocol
      })
      for (const target of together) {
        counts[side][target] = count[target]
        onCount({ side, target, ...count[target] })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, jobs.length)) }, next))
  return Object.fromEntries(Object.entries(counts).map(([side, byTarget]) => [side, Object.fromEntries(targets.map((t) => [t, byTarget[t]]))]))
}

function groupByServer (targets, definitions, taxes = {}) {
  const groups = new Map()
  for (const target of targets) {
    const { entry, env = {}, stdout, leaking = false } = definitions[target]
    const taxed = taxes[target] !== undefined
    const key = JSON.stringify([entry, env, stdout ?? null, leaking, taxed ? taxes[target] : null])
    if (!groups.has(key)) groups.set(key, { entry, env, stdout, leaking, taxed, targets: [] })
    groups.get(key).targets.push(target)
  }
  return [...groups.values()]
}

module.exports = { countTargets, groupByServer, describeMeter, DEFAULTS }
