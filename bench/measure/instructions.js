'use strict'

// The instruction meter: what one request costs a target in instructions,
// counted by valgrind's callgrind, beside the CPU time the other meter
// reads. CPU time says what a user pays and moves with the machine (a
// shared core, a frequency step, another CPU); an instruction count says
// whether the code changed, and is the same on a quiet machine and a busy
// one. How a run goes, and why (docs/instructions.md, "The instruction
// meter", gives the reason for each choice):
// 1. The target starts in a fresh process under callgrind with its
//    instrumentation off (valgrind runs it about 5x faster so), with V8 set
//    to do the same thing every time (V8_FLAGS).
// 2. A client outside valgrind sends it `warmupRequests` requests, one at a
//    time on one kept-alive connection, until V8 has compiled what the
//    request path runs.
// 3. Instrumentation goes on; `settleRequests` more requests are not
//    counted (for about a thousand requests after it goes on, the count
//    still falls, by up to 1 %, wherever that is in the run).
// 4. `windows` windows of `windowRequests` requests are counted, each from
//    zeroed counters: instructions per request, one figure per window.
//    Their spread is the run's own noise.
// What it does not count (callgrind.js's NOT_COUNTED, POLL and
// CALLS_LEFT_OUT, instruction-count.js's FROZEN_CLOCK): V8 compiling code
// and collecting garbage, whose moments depend on the clock as much as on
// the code, the event loop's polling, the C library's allocator, whose cost
// a call depends on the process's past, and anything the clock drives: the
// target runs on a clock that stands still, whose fake is not counted
// either; and never the kernel (system calls, the network stack), cache
// misses or any waiting. CPU time sees all of those.
// Here: the counts scheduled over the targets and the trees, and what a
// count depends on; instruction-count.js counts one process (steps 1 to
// 4), instruction-tools.js checks the machine has what the meter needs.

const os = require('node:os')
const path = require('node:path')
const { V8_FLAGS, NOT_COUNTED, POLL, CALLS_LEFT_OUT } = require('./callgrind')
const { MeterUnavailable } = require('./instruction-tools')
const { countInstructions, FROZEN_CLOCK, DEFAULTS } = require('./instruction-count')

// Loaded into a taxed target, and with no work into the same target on
// the other side, so that the hook's own cost is on both.
const WORK_TAX = path.join(__dirname, 'work-tax.js')

/**
 * What a count depends on, recorded with it (a stored baseline is checked
 * against it): Node, valgrind's version (`valgrind`), V8's flags, what is
 * not counted, and the protocol, slow's part of it from the load's own
 * `warmupRequests` and `requests` (`load`), as the CPU meter measures it.
 */
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

// What a kind of CALLS_LEFT_OUT is, in a baseline's words.
function describeCalls ({ object, functions }) {
  return `${functions === null ? 'every function' : [...functions].join(', ')} of ${object.source}`
}

/**
 * Count every target of `targets` (names in `definitions`, bench/protocol/
 * targets.js's and the user's) from every tree of `trees` ({ side: folder
 * }), as many processes at a time as the machine has cores (each is one
 * thread under valgrind). Targets that are the same server started alike
 * (fixed and fixed-304: the same entry, environment, stdout and tax) are
 * counted in one process, each kind of request from a client of its own:
 * a start under valgrind is most of a count. `taxes` ({ target:
 * instructions }) adds that much work to each request of a target on
 * `taxedSide` (the others get the hook, with none). A leaking target
 * (slow) is counted at its own request counts: `protocol.
 * leakingWarmupRequests` requests, then windows of
 * `protocol.leakingWindowRequests`, since its cost grows with each.
 * `onCount({ side, target, windows, seconds })` follows the run. Resolves
 * to { side: { target: { windows, firstRequest, seconds } } }. Targets of
 * several processes cannot be counted (valgrind follows one).
 */
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
  // In the targets' order, whichever finished first.
  return Object.fromEntries(Object.entries(counts).map(([side, byTarget]) => [side, Object.fromEntries(targets.map((t) => [t, byTarget[t]]))]))
}

/**
 * `targets` grouped by the process that serves them: [{ entry, env,
 * stdout, leaking, taxed, targets }], in the order of each group's first
 * target. Two targets share a process when it would be started alike: the
 * same entry, environment, stdout, and tax (a taxed target and an untaxed
 * one would not be).
 */
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
