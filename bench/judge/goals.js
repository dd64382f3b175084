'use strict'

// What a run is held to: the ratios it reports and each mode's protocol, goals and checks.
// Why each goal is where it is: docs/benchmark.md, "Goals on any machine".

const os = require('node:os')
const { targetsIn, theTargetIn } = require('../protocol/targets')

// Every CPU-per-request figure is divided by it: it runs in the same rounds, so the machine moves both alike.
const REFERENCE = theTargetIn('reference')

function ratio (name, metric, better) {
  const [of, over] = name.replace(/^\S+ /, '').split('/')
  return { name, of, over, metric, better }
}

const RATIOS = [
  ratio('fast/slow', 'requestsPerSecond', 'higher'),
  ratio('fixed/fast', 'requestsPerSecond', 'higher'),
  ratio('fixed/node-http', 'requestsPerSecond', 'higher'),
  ratio('fixed-304/node-http', 'requestsPerSecond', 'higher'),
  ratio('fixed/fastify', 'requestsPerSecond', 'higher'),
  ratio('node-http/fastify', 'requestsPerSecond', 'higher'),
  // Unlike throughput, CPU per request is not moved by the load generator's share of the cores.
  // Cost before over cost after, the way the story tells it: higher is the bigger gain.
  ratio('cpu slow/fast', 'cpuMicrosPerRequest', 'higher'),
  ratio('cpu fast/fixed', 'cpuMicrosPerRequest', 'higher'),
  ratio('cpu fixed/node-http', 'cpuMicrosPerRequest', 'lower'),
  ratio('cpu fixed/fastify', 'cpuMicrosPerRequest', 'lower'),
  ratio('restify/node-http', 'requestsPerSecond', 'higher'),
  ratio('cpu restify/node-http', 'cpuMicrosPerRequest', 'lower'),
  ratio('cpu fixed/restify', 'cpuMicrosPerRequest', 'lower'),
  ratio('p99 slow-unprotected/slow-protected', 'latencyP99', 'higher'),
  ratio('logging-fixed/logging-slow', 'requestsPerSecond', 'higher'),
  ratio('cpu logging-slow/logging-fixed', 'cpuMicrosPerRequest', 'higher'),
  ratio('logging-slow-file/logging-slow', 'requestsPerSecond', 'higher'),
  ratio('logging-slow-piped/logging-slow', 'requestsPerSecond', 'higher'),
  ratio('logging-fixed-file/logging-slow-file', 'requestsPerSecond', 'higher'),
  ratio('cpu logging-fixed-file/logging-slow-file', 'cpuMicrosPerRequest', 'lower'),
  ratio('crypto-fixed/crypto-slow', 'requestsPerSecond', 'higher'),
  ratio('cpu crypto-slow/crypto-fixed', 'cpuMicrosPerRequest', 'higher'),
  ratio('backend-pooled/backend-slow', 'requestsPerSecond', 'higher'),
  ratio('backend-fixed/backend-pooled', 'requestsPerSecond', 'higher'),
  ratio('backend-fixed/backend-slow', 'requestsPerSecond', 'higher'),
  ratio('cpu backend-fixed/backend-slow', 'cpuMicrosPerRequest', 'lower'),
  ratio('cpu backend-pooled/backend-slow', 'cpuMicrosPerRequest', 'lower'),
  ratio('cpu backend-fixed/backend-pooled', 'cpuMicrosPerRequest', 'lower'),
  ratio('cpu backend-fixed/fixed', 'cpuMicrosPerRequest', 'lower'),
  ratio('fixed/cluster', 'requestsPerSecond', 'higher'),
  ratio('cpu cluster/fixed', 'cpuMicrosPerRequest', 'lower')
]

function userRatios (name) {
  return ratiosAgainst(name, targetsIn('user'))
}

function ratiosAgainst (name, overs) {
  return overs.flatMap((over) => [
    { name: `${name}/${over}`, of: name, over, metric: 'requestsPerSecond', better: 'higher' },
    { name: `cpu ${name}/${over}`, of: name, over, metric: 'cpuMicrosPerRequest', better: 'lower' }
  ])
}

// Each goal clears its worst run by 10 % or more on two cores, on one, and beside npm run cpu-hog.
const FULL_GOALS = {
  'cpu slow/fast': 100,
  'cpu fast/fixed': 2,
  'cpu fixed/node-http': 1.75,
  'cpu fixed/fastify': 0.9,
  'p99 slow-unprotected/slow-protected': 2
}

const FULL_CHECKS = {
  goals: FULL_GOALS,
  errorFree: targetsIn('errorFree'),
  timeoutFree: targetsIn('timeoutFree'),
  shedding: targetsIn('shedding')
}

// `warmup` and `duration` are seconds; a leaking target gets `warmupRequests` and `requests` instead.
const MODES = {
  start: {
    protocol: { targets: targetsIn('start'), connections: 100, warmup: 2, duration: 5, warmupRequests: 500, requests: 200, rounds: 2 },
    ...FULL_CHECKS,
    enforce: false
  },
  full: {
    protocol: { targets: targetsIn('start'), connections: 100, warmup: 3, duration: 10, warmupRequests: 500, requests: 200, rounds: 3 },
    ...FULL_CHECKS,
    enforce: true
  },
  ci: {
    protocol: { targets: targetsIn('ci'), connections: 100, warmup: 0.5, duration: 1.5, warmupRequests: 200, requests: 100, rounds: 7 },
    // A faster CPU shortens slow's hashing and serialization more than restify's own work, so this goal is low.
    goals: { 'cpu slow/fast': 20 },
    errorFree: targetsIn('errorFree'),
    timeoutFree: [],
    shedding: [],
    enforce: true
  },
  ...storyModes({
    // Throughput: the slow line waits on the disk, which CPU per request does not see.
    logging: { 'logging-fixed/logging-slow': 2.3 },
    crypto: { 'cpu crypto-slow/crypto-fixed': 60 },
    backend: { 'cpu backend-pooled/backend-slow': 0.65, 'cpu backend-fixed/backend-pooled': 0.3, 'cpu backend-fixed/backend-slow': 0.15 },
    // On two cores shared with autocannon a second worker finds no idle core, so one process serves
    // about what the cluster does. On other core counts nothing is claimed (`cores`).
    cluster: { 'fixed/cluster': 0.85 }
  }, { cluster: { cores: 2 } })
}

function storyModes (goalsByStory, settingsByStory = {}) {
  return Object.fromEntries(Object.entries(goalsByStory).map(([name, goals]) => {
    const targets = targetsIn(name)
    return [name, {
      protocol: { targets, connections: 100, warmup: 2, duration: 5, warmupRequests: 0, requests: 1, rounds: 3 },
      goals,
      errorFree: targets,
      timeoutFree: targets,
      shedding: [],
      enforce: true,
      ...settingsByStory[name]
    }]
  }))
}

function isEnforced (rules, cores = os.availableParallelism()) {
  return rules.enforce && (rules.cores === undefined || rules.cores === cores)
}

module.exports = { REFERENCE, RATIOS, userRatios, ratiosAgainst, MODES, isEnforced }
