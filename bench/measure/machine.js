'use strict'

// Where and what a run measured: the machine, how busy it was just before,
// the versions the figures depend on, and the commit.

const os = require('node:os')
const { describeHead } = require('../../tooling/git')
const { cpuTimes } = require('../../tooling/cpu-times')

/**
 * The machine as the run found it: CPU model and cores, the cores this
 * process may use (`usableCores`: the CPU affinity `taskset` sets; the
 * servers it starts and autocannon, which runs in this process, share
 * them), memory, the 1-minute load average at the start (null where the OS
 * has none), Node and the platform.
 */
function describeMachine () {
  const cpus = os.cpus()
  return {
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0] ? cpus[0].model : 'unknown',
    cores: cpus.length,
    usableCores: os.availableParallelism(),
    loadAverage: process.platform === 'win32' ? null : os.loadavg()[0],
    memoryGiB: Math.round(os.totalmem() / 2 ** 30)
  }
}

/**
 * The machine as a command finds it before measuring: describeMachine's
 * figures and `cpuBusy`, how busy its CPU was over the half second just
 * before (sampleCpuBusy).
 */
async function describeMachineAtStart () {
  return { ...describeMachine(), cpuBusy: await sampleCpuBusy() }
}

/**
 * The share of the machine's CPU time (all cores) that was not idle over
 * `ms` before the run, while this process waits on a timer: what else is
 * running now. The load average alone misses a load that started a few
 * seconds ago: it is a 1-minute average (docs/benchmark.md, "Reading the
 * output"). Null where the OS reports
 * no CPU times.
 */
async function sampleCpuBusy (ms = 500) {
  const before = cpuTimes()
  await new Promise((resolve) => setTimeout(resolve, ms))
  const after = cpuTimes()
  const all = after.all - before.all
  return all > 0 ? 1 - (after.idle - before.idle) / all : null
}

// The versions of what the figures depend on, besides Node (in the machine).
function describeVersions () {
  const versionOf = (name) => {
    try {
      return require(`${name}/package.json`).version
    } catch {
      return null
    }
  }
  return Object.fromEntries(['restify', 'fast-json-stringify', 'autocannon', 'fastify']
    .map((name) => [name, versionOf(name)]).filter(([, version]) => version !== null))
}

// The commit the run measured, with "+changes" when the tree differs from
// it; null outside a git checkout.
function currentCommit () {
  try {
    const { commit, dirty } = describeHead()
    return dirty ? `${commit}+changes` : commit
  } catch {
    return null
  }
}

module.exports = { describeMachine, describeMachineAtStart, sampleCpuBusy, describeVersions, currentCommit }
