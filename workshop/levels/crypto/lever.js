'use strict'

// The crypto exercise's wrong fixes that hand a client a lever: a cache that grows with every new password it sends
// (shown by the server's heap), and keys compared in time that depends on their bytes (read from the source: over
// HTTP, on a shared machine, a few nanoseconds a byte cannot be measured).

const fs = require('node:fs')
const path = require('node:path')
const http = require('node:http')
const crypto = require('node:crypto')
const { SEED_PATH } = require('../../../core/seed-contract')
const { STORY_USER, basicAuthorization } = require('../../../tooling/story-headers')
const { get } = require('../http')

const title = 'Level 2: no lever for a client that sends new passwords'
const usage = [
  'the heap does not grow with each new password; keys compared in',
  'constant time (read from the source)'
]
const readme = 'docs/stories.md, "Story: crypto in a middleware"'
const failing = 'A client that sends new passwords still has a lever: level 2 fails.'
const held = 'No client can grow your server or time its comparison.'

// Long passwords, so that a cache keyed by what the client sends grows by kilobytes each, far above what a bounded
// cache keyed by a hash adds while under its bound (about a hundred bytes an entry). Under Node's 16 KiB of headers.
const LEVER_PROTOCOL = { passwords: 150, passwordBytes: 8192, concurrency: 10 }
// Heap growth a new password from this on is a cache that holds what the client sent.
const GROWTH_BYTES_PER_PASSWORD = 1024

// `entry` is the server's file or folder, whose .js files the comparison is read from.
async function checkLever (server, { protocol = LEVER_PROTOCOL, entry } = {}) {
  return { checks: [await checkMemory(server, protocol), checkComparison(entry)] }
}

async function checkMemory (server, { passwords, passwordBytes, concurrency }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  try {
    const before = await server.sample()
    let sent = 0
    const client = async () => {
      while (sent < passwords) {
        sent++
        await get(server.url, { agent, headers: basicAuthorization(STORY_USER, crypto.randomBytes(passwordBytes * 3 / 4).toString('base64')) })
      }
    }
    await Promise.all(Array.from({ length: concurrency }, client))
    const after = await server.sample()
    const perPassword = (after.heapUsed - before.heapUsed) / passwords
    return {
      name: 'the heap does not grow with every new password',
      pass: perPassword < GROWTH_BYTES_PER_PASSWORD,
      sent: `${passwords} GET ${SEED_PATH} as ${STORY_USER} with a new wrong password of ${passwordBytes / 1024} KiB each, ${concurrency} at a time`,
      seen: `the heap after a collection went from ${kib(before.heapUsed)} to ${kib(after.heapUsed)}: ${perPassword >= 0 ? '+' : ''}${Math.round(perPassword).toLocaleString('en-US')} bytes a password (growing is ${GROWTH_BYTES_PER_PASSWORD.toLocaleString('en-US')} or more)`,
      hint: `your cache keeps what each client sends, with no bound: a client with ever new passwords fills your memory. Bound it (lru-cache's max) and key it by a hash of the header, as the story's fixed server does (${readme})`
    }
  } finally {
    agent.destroy()
  }
}

// Compared in constant time when some file of the server's folder calls crypto.timingSafeEqual and none compares
// bytes another way (Buffer equals or compare, or === on a key or its text).
const OTHER_COMPARISONS = /\.equals\(|Buffer\.compare\(|\b(derived|key)\w*(\.toString\([^)]*\))?\s*[!=]==|[!=]==\s*[\w.]*\b(derived|key)\w*\b/i

function checkComparison (entry) {
  const folder = entry && fs.statSync(entry, { throwIfNoEntry: false })?.isDirectory() ? entry : entry && path.dirname(entry)
  const files = folder ? fs.readdirSync(folder).filter((file) => file.endsWith('.js')) : []
  const name = 'keys compared in constant time (read from your source: timing cannot be measured here)'
  if (files.length === 0) return { name, pass: null, seen: 'not read: no .js file beside the server' }
  const found = []
  let timingSafe = false
  for (const file of files) {
    const lines = fs.readFileSync(path.join(folder, file), 'utf8').split('\n')
    for (const [index, line] of lines.entries()) {
      const code = line.replace(/\/\/.*$/, '')
      if (code.includes('timingSafeEqual(')) timingSafe = true
      if (OTHER_COMPARISONS.test(code)) found.push(`${file}:${index + 1}: ${code.trim()}`)
    }
  }
  return {
    name,
    pass: timingSafe && found.length === 0,
    sent: `read ${files.join(', ')}`,
    seen: found.length > 0 ? found.join('; ') : timingSafe ? 'crypto.timingSafeEqual, and no other comparison of keys' : 'no call of crypto.timingSafeEqual',
    hint: `compare the derived key with crypto.timingSafeEqual (keyMatches in account.js): equals, compare or === stop at the first byte that differs, and how long they take tells a client how many bytes it got right (${readme})`
  }
}

function kib (bytes) {
  return `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 0 })} KiB`
}

module.exports = { title, usage, readme, failing, held, check: checkLever, LEVER_PROTOCOL, GROWTH_BYTES_PER_PASSWORD }
