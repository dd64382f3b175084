'use strict'

// `npm run soak -- <server> [--duration S] [--connections N]`: sustained load
// on one server, sampling its retained heap, RSS and 'after' listeners. Exit
// codes: 0 held, 1 a check failed, 2 bad arguments.

const autocannon = require('autocannon')
const { runAsProcess, parseCommandLine, numberOption, UsageError } = require('../tooling/command')
const { resolveServerPath } = require('../tooling/server-path')
const { isLeaking } = require('../tooling/targets')
const { startTarget } = require('../tooling/target-process')

const USAGE = `Usage: npm run soak -- <server> [--duration SECONDS] [--connections N]

Loads one server (a variant, slow, fast or fixed, or the path of your own,
such as your workshop copy) with autocannon for --duration seconds
(default 60) at --connections (default 100), and samples the server's
retained heap (after a full GC), RSS and 'after' listeners every second.
Every server but slow must end with no errors, no timeouts, only 200s, a
flat heap and one 'after' listener at most; slow's leak is reported.
Exit codes: 0 every check held, 1 a check failed, 2 bad arguments.
`
// Retained heap growth allowed from warm-up to the end: a server's state is
// a few copies of the seed body, so real growth is a leak.
const ALLOWED_HEAP_GROWTH_BYTES = 5 * 2 ** 20
const SAMPLE_EVERY_MS = 1000
const MB = 2 ** 20

// `target`: a variant's name, a server's path, or resolveServerPath's answer.
async function soak (target, { duration = 60, connections = 100, log = () => {} } = {}) {
  const { entry, name: variant } = resolveServerPath(target)
  const server = await startTarget(entry, { nodeArgs: ['--expose-gc'] })
  const samples = []
  const started = Date.now()
  let served = 0
  // A blocked server (slow) answers late; one silent past the run is hung.
  const sample = async () => {
    const { type, ...memory } = await server.sample({ timeoutMs: (duration + 10) * 1000 })
    samples.push({ seconds: (Date.now() - started) / 1000, requests: served, ...memory })
  }
  try {
    await sample()
    // One sample at a time: a second request would get the first one's answer.
    let pending = null
    let failed = null
    const timer = setInterval(() => {
      if (pending) return
      pending = sample().then(() => {
        pending = null
        log(formatSample(samples[samples.length - 1]))
      }, (err) => { failed = err })
    }, SAMPLE_EVERY_MS)
    const result = await new Promise((resolve, reject) => {
      const instance = autocannon({ url: server.url, connections, duration }, (err, res) => err ? reject(err) : resolve(res))
      instance.on('response', () => { served++ })
    })
    clearInterval(timer)
    await pending
    if (failed) throw failed
    await sample()
    return summarize(variant, duration, connections, result, samples)
  } finally {
    await server.stop()
  }
}

function summarize (variant, duration, connections, result, samples) {
  // The first ~10 % of the run is warm-up: JIT, caches and buffers settle.
  const warmedUp = samples.find((s) => s.seconds >= Math.max(1, duration / 10)) || samples[0]
  const last = samples[samples.length - 1]
  const heapGrowth = last.heapUsed - warmedUp.heapUsed
  const rssGrowth = last.rss - warmedUp.rss
  const requests = result.requests.total
  const checks = []
  if (isLeaking(variant)) {
    checks.push({
      name: 'the leak',
      pass: true,
      detail: `${last.afterListeners} after listeners after ${last.requests} responses ` +
        '(one per request that reached the middleware, answered or still in flight); ' +
        `retained heap ${signedMb(heapGrowth)}, RSS ${signedMb(rssGrowth)} since warm-up`
    })
  } else {
    checks.push({ name: 'no errors', pass: result.errors === 0, detail: `${result.errors} errors` })
    checks.push({ name: 'no timeouts', pass: result.timeouts === 0, detail: `${result.timeouts} timeouts` })
    checks.push({ name: 'only 200s', pass: result.non2xx === 0, detail: `${result.non2xx} non-2xx responses` })
    checks.push({
      name: 'flat memory',
      pass: heapGrowth <= ALLOWED_HEAP_GROWTH_BYTES,
      detail: `retained heap ${signedMb(heapGrowth)} since warm-up (allowed: +${ALLOWED_HEAP_GROWTH_BYTES / MB} MB), RSS ${signedMb(rssGrowth)}`
    })
    checks.push({ name: 'one after listener at most', pass: last.afterListeners <= 1, detail: `${last.afterListeners} after listeners` })
  }
  return {
    variant,
    duration,
    connections,
    requests,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    samples,
    heapGrowth,
    rssGrowth,
    checks
  }
}

function formatSample (s) {
  return `  ${s.seconds.toFixed(0).padStart(4)} s  ${String(s.requests).padStart(9)} responses  ` +
    `heap ${(s.heapUsed / MB).toFixed(1).padStart(6)} MB  RSS ${(s.rss / MB).toFixed(1).padStart(6)} MB  ` +
    `after listeners ${s.afterListeners}`
}

function signedMb (bytes) {
  return `${bytes >= 0 ? '+' : ''}${(bytes / MB).toFixed(1)} MB`
}

function parseSoakCommandLine (argv) {
  const { values, positionals } = parseCommandLine(argv, {
    duration: { type: 'string' },
    connections: { type: 'string' }
  }, { positionals: true })
  const [server, ...rest] = positionals
  const resolved = resolveServerPath(server)
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  return {
    server: resolved,
    duration: numberOption('duration', values.duration, 60, { min: 2 }),
    connections: numberOption('connections', values.connections, 100, { min: 1, integer: true })
  }
}

async function main (argv, { stdout }) {
  const { server, duration, connections } = parseSoakCommandLine(argv)
  const print = (line) => stdout.write(line + '\n')
  print(`Soak: ${server.name}, autocannon -c ${connections} for ${duration} s; memory after a full GC, sampled every ${SAMPLE_EVERY_MS / 1000} s`)
  const report = await soak(server, { duration, connections, log: print })
  print(`\n${report.requests} requests, ${report.errors} errors, ${report.timeouts} timeouts, ${report.non2xx} non-2xx`)
  for (const check of report.checks) print(`${check.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}`)
  return report.checks.every((c) => c.pass) ? 0 : 1
}

const command = { name: 'soak', usage: USAGE, main }

module.exports = { soak, command }

if (require.main === module) runAsProcess(command)
