'use strict'

// The crypto exercise's lesson, shown by what the server does: a new password's key is derived off the event loop
// (a request without credentials, sent after a burst of new passwords, is answered before them), and the same
// credentials are not derived again (their CPU per request near a request's that derives nothing).

const http = require('node:http')
const crypto = require('node:crypto')
const { SEED_PATH } = require('../../../core/seed-contract')
const { STORY_USER, STORY_PASSWORD, basicAuthorization } = require('../../../tooling/story-headers')
const { get, sendRequests } = require('../http')
const { formatMicros } = require('../micros')

const title = 'Level 1: the key derived once per credential, off the event loop'
const usage = [
  'a request without credentials answered first while new passwords',
  'are derived; the same credentials cost about what none cost'
]
const readme = 'docs/stories.md, "Story: crypto in a middleware"'
const failing = 'The key derivation is still paid on the hot path: level 1 fails.'
const held = 'Your fix derives each key once, off the event loop.'

const LESSON_PROTOCOL = {
  burst: 16, // new passwords sent at once, the request without credentials once they are all sent
  bursts: 2, // the best read: a busy neighbour can delay one burst, a held event loop delays every one
  concurrency: 10,
  warmup: 50,
  chunks: 5,
  chunkRequests: 20
}
// Answered after this share of the burst or more, the request without credentials waited for their derivations.
const HELD_SHARE = 0.5
// The same credentials at this many times a request without credentials, or more, still pay a derivation:
// pbkdf2Sync's 10,000 rounds cost some twenty times a request, a cached verdict about one.
const ONCE_PER_CREDENTIAL = 3
// A chunk grows until it spans this many steps of the server's CPU clock (a coarse clock reads a short one as 0).
const CHUNK_CLOCK_STEPS = 10
const CHUNK_MAX_REQUESTS = 2000

async function checkLesson (server, { protocol = LESSON_PROTOCOL } = {}) {
  const loop = await checkEventLoop(server, protocol)
  const cpu = await checkSameCredentials(server, protocol, { loopFree: loop.pass === true })
  return { checks: [loop, cpu] }
}

async function checkEventLoop ({ url }, { burst, bursts }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: burst + 1 })
  try {
    // A socket each, opened before: the burst and the probe then leave in the order they are sent.
    await Promise.all(Array.from({ length: burst + 1 }, () => get(url, { agent })))
    const before = []
    for (let i = 0; i < bursts; i++) before.push(await answeredBefore(url, agent, burst))
    const fewest = Math.min(...before)
    return {
      name: 'new passwords do not hold the event loop',
      pass: fewest < HELD_SHARE * burst,
      sent: `${bursts} bursts of ${burst} GET ${SEED_PATH} as ${STORY_USER} with a new wrong password each, then one without credentials`,
      seen: `the request without credentials answered after ${before.map((n) => `${n} of ${burst}`).join(', then ')} (held is ${Math.ceil(HELD_SHARE * burst)} or more)`,
      hint: `each new password's key is derived on the event loop (pbkdf2Sync): no other request is answered meanwhile, so one client with new passwords stalls all. Derive it with crypto.pbkdf2, on libuv's thread pool (${readme})`
    }
  } finally {
    agent.destroy()
  }
}

// How many of a burst of new passwords were answered before the request without credentials, sent once the whole
// burst is handed to the OS (and so is at the server). Sent with the burst, or once the first was answered, the
// probe could still reach a server holding its loop (pbkdf2Sync) before most of the burst on a busy machine, the
// client writing its sockets late, and read as a free loop.
async function answeredBefore (url, agent, burst) {
  let answered = 0
  let sent = 0
  let allSent
  const burstSent = new Promise((resolve) => { allSent = resolve })
  const onSent = () => { if (++sent === burst) allSent() }
  const passwords = Array.from({ length: burst }, () => crypto.randomBytes(12).toString('base64url'))
  const derived = passwords.map((password) => get(url, { agent, onSent, headers: basicAuthorization(STORY_USER, password) }).then(() => { answered++ }))
  await burstSent
  const probe = get(url, { agent }).then(() => answered)
  const [seen] = await Promise.all([probe, ...derived])
  return seen
}

async function checkSameCredentials (server, protocol, { loopFree }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: protocol.concurrency })
  try {
    const right = basicAuthorization(STORY_USER, STORY_PASSWORD)
    const load = (headers) => (count) => sendRequests(server.url, count, { agent, concurrency: protocol.concurrency, headers })
    await load(right)(protocol.warmup)
    await load({})(protocol.warmup)
    const step = await server.cpuClockStepMicros()
    const none = await cheapestCpuPerRequest(server, load({}), protocol, step)
    const same = await cheapestCpuPerRequest(server, load(right), protocol, step)
    const measured = none > 0 && same > 0
    const ratio = measured ? same / none : null
    return {
      name: 'the same credentials are not derived again',
      pass: measured ? ratio < ONCE_PER_CREDENTIAL : null,
      sent: `GET ${SEED_PATH} as ${STORY_USER} / ${STORY_PASSWORD}, ${protocol.concurrency} at a time, and without credentials; the server's CPU time, the cheapest of ${protocol.chunks} chunks each`,
      seen: measured
        ? `${formatMicros(same)} per request as ${STORY_USER} / ${STORY_PASSWORD}, ${formatMicros(none)} without credentials (x${ratio.toFixed(2)}; once per credential is under x${ONCE_PER_CREDENTIAL})`
        : `not measured: the server's CPU clock ${step === null ? 'did not move' : `moves by ${formatMicros(step)}`}`,
      hint: loopFree
        ? `crypto.pbkdf2 took the key off the event loop, but every request still derives it, with no bound on how many run at once: a burst queues one each on libuv's four threads, and everyone waits behind them. Keep each credential's verdict in a bounded cache, and let the requests that come while one is derived wait for it (${readme})`
        : `every request with the same credentials still derives the key: keep each credential's verdict, in a bounded cache, so that it is derived once (${readme})`
    }
  } finally {
    agent.destroy()
  }
}

// CPU µs per request: the cheapest of `chunks` chunks, each grown until the CPU clock moves by CHUNK_CLOCK_STEPS steps.
async function cheapestCpuPerRequest (server, load, { chunks, chunkRequests }, step) {
  const minimum = CHUNK_CLOCK_STEPS * (step ?? Infinity)
  let cheapest = Infinity
  for (let i = 0; i < chunks; i++) {
    let requests = chunkRequests
    for (;;) {
      const before = (await server.usage()).cpuMillis
      await load(requests)
      const spent = ((await server.usage()).cpuMillis - before) * 1000
      if (spent >= minimum || requests >= CHUNK_MAX_REQUESTS) {
        if (spent > 0) cheapest = Math.min(cheapest, spent / requests)
        break
      }
      requests *= 2
    }
  }
  return Number.isFinite(cheapest) ? cheapest : 0
}

module.exports = { title, usage, readme, failing, held, check: checkLesson, LESSON_PROTOCOL, ONCE_PER_CREDENTIAL, HELD_SHARE }
