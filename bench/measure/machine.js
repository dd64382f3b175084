'use strict'

// Where and what a run measured: the machine, how busy it was just before, the versions the figures depend on, and the commit.

const os = require('node:os')
const { describeHead } = require('../../tooling/git')
const { cpuTimes } = require('../../tooling/cpu-times')

// `usableCores` is the CPU affinity `taskset` sets; the servers and autocannon, which runs in this process, share those cores.
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

async function describeMachineAtStart () {
  return { ...describeMachine(), cpuBusy: await sampleCpuBusy() }
}

// The share of all cores' CPU time not idle over the `ms` before the run (null where the OS reports none): the load average,
// a 1-minute average, misses a load that started seconds ago.
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

function currentCommit () {
  try {
    const { commit, dirty } = describeHead()
    return dirty ? `${commit}+changes` : commit
  } catch {
    return null
  }
}

module.exports = { describeMachine, describeMachineAtStart, sampleCpuBusy, describeVersions, currentCommit }
