'use strict'

// What `node slow`, `node fast` and `node fixed` run: build the variant's
// server, listen, print the URL for people, and close gracefully on SIGINT
// and SIGTERM. The benchmark and the tests start variants through this same
// path; they learn the port through tooling/probe.js, not from the printed line.

const net = require('node:net')
const path = require('node:path')
const { createContentSource } = require('./content')
const { SEED_PATH } = require('./seed-contract')
const launchChannel = require('./launch-channel')
const { protectFromOverload } = require('./overload')
const { unsupportedNodeLine } = require('./node-support')

const DEFAULT_PORT = 3000
const DEFAULT_HOST = '127.0.0.1'
// After a signal, the server keeps accepting this long (SHUTDOWN_DRAIN_MS),
// and cuts whatever is still open after the grace period.
const DEFAULT_DRAIN_MS = 500
const SHUTDOWN_GRACE_MS = 5000
// Slow clients (slowloris) are cut by Node's headersTimeout (the whole
// head must arrive within it; a connection that sends nothing counts too)
// and requestTimeout (the whole request), answered 408. Node's defaults
// are 60 s and 300 s, checked every 30 s; these are tighter, and checked
// every second.
const DEFAULT_HEADERS_TIMEOUT_MS = 10000
const DEFAULT_REQUEST_TIMEOUT_MS = 30000
const TIMEOUT_CHECK_INTERVAL_MS = 1000

/**
 * Launch the server that `createServer` builds (or resolves to): a restify
 * server or a plain http.Server. `location` is the variant's folder or the
 * reference server's file, or a story's name (`logging-slow`): its last part,
 * without `.js`, is the name the start-up line prints.
 * Reads from `env`: PORT (default 3000, 0 for any free port), HOST (default
 * 127.0.0.1), SEED (makes the content reproducible), and for restify servers
 * OVERLOAD_MAX_DELAY_MS (opt-in overload protection: 503 while the event
 * loop lags more than this) with OVERLOAD_RETRY_AFTER_S (default 1), and
 * SHUTDOWN_DRAIN_MS (default 500: how long it keeps accepting after SIGINT
 * or SIGTERM; see closeGracefullyOnSignals), HEADERS_TIMEOUT_MS (default
 * 10000) and REQUEST_TIMEOUT_MS (default 30000): slow clients get 408.
 * Resolves to the listening server.
 */
async function launch (createServer, location, env = process.env) {
  const name = path.basename(location, '.js')
  const unsupported = unsupportedNodeLine(name)
  if (unsupported) console.error(unsupported)
  const port = parsePort(env.PORT)
  const drainMs = parseDrainMs(env.SHUTDOWN_DRAIN_MS)
  const headersTimeout = parseMilliseconds('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, DEFAULT_HEADERS_TIMEOUT_MS)
  const requestTimeout = parseMilliseconds('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS)
  if (requestTimeout < headersTimeout) {
    console.error(`REQUEST_TIMEOUT_MS (${requestTimeout}) must be at least HEADERS_TIMEOUT_MS (${headersTimeout}): the head is part of the request`)
    process.exit(2)
  }
  const host = env.HOST || DEFAULT_HOST
  const source = createContentSource({ seed: env.SEED })
  const server = await createServer({ source })
  const overload = parseOverloadOptions(env)
  if (overload) {
    protectFromOverload(server, overload)
    console.log(`${name}: overload protection on: 503 while event-loop delay > ${overload.maxDelayMs} ms`)
  }

  const httpServer = server.server || server // restify wraps an http.Server
  httpServer.headersTimeout = headersTimeout
  httpServer.requestTimeout = requestTimeout
  // restify creates its http.Server without options; Node reads this one
  // when the server starts listening (hostile-input.test.js pins that).
  httpServer.connectionsCheckingInterval = TIMEOUT_CHECK_INTERVAL_MS

  server.on('error', (err) => {
    console.error(`${name}: cannot listen on ${host}:${port}: ${err.message}`)
    process.exit(1)
  })
  server.listen(port, host, () => {
    console.log(`${name} listening on ${urlOf(server)}${SEED_PATH}`)
    launchChannel.publish({ name, server, source })
  })
  closeGracefullyOnSignals(httpServer, name, { drainMs, graceMs: SHUTDOWN_GRACE_MS })
  return server
}

function parsePort (value) {
  if (value === undefined || value === '') return DEFAULT_PORT
  const port = Number(value)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be an integer from 0 to 65535, got ${JSON.stringify(value)}`)
    process.exit(2)
  }
  return port
}

function parseDrainMs (value) {
  if (value === undefined || value === '') return DEFAULT_DRAIN_MS
  const drainMs = Number(value)
  if (!Number.isInteger(drainMs) || drainMs < 0 || drainMs >= SHUTDOWN_GRACE_MS) {
    console.error(`SHUTDOWN_DRAIN_MS must be an integer from 0 to ${SHUTDOWN_GRACE_MS - 1}, got ${JSON.stringify(value)}`)
    process.exit(2)
  }
  return drainMs
}

function parseMilliseconds (name, value, fallback) {
  if (value === undefined || value === '') return fallback
  const ms = Number(value)
  if (!Number.isInteger(ms) || ms < 1) {
    console.error(`${name} must be an integer number of milliseconds >= 1, got ${JSON.stringify(value)}`)
    process.exit(2)
  }
  return ms
}

function parseOverloadOptions (env) {
  if (env.OVERLOAD_MAX_DELAY_MS === undefined || env.OVERLOAD_MAX_DELAY_MS === '') return null
  const maxDelayMs = Number(env.OVERLOAD_MAX_DELAY_MS)
  const retryAfterSeconds = env.OVERLOAD_RETRY_AFTER_S === undefined ? 1 : Number(env.OVERLOAD_RETRY_AFTER_S)
  if (!(maxDelayMs > 0) || !Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0) {
    console.error('OVERLOAD_MAX_DELAY_MS must be a number > 0 and OVERLOAD_RETRY_AFTER_S an integer >= 0')
    process.exit(2)
  }
  return { maxDelayMs, retryAfterSeconds }
}

function urlOf (server) {
  const { address, port } = server.address()
  const host = address.includes(':') ? `[${address}]` : address
  return `http://${host}:${port}`
}

// Shutdown on SIGINT or SIGTERM loses nothing a client was promised: every
// client gets its whole response or a refused connection, never a reset.
//
// Written here because the maintained libraries lose such clients:
// stoppable (which @godaddy/terminus uses) closes the listening socket at
// once and ends every connection that has no request yet; http-terminator
// destroys every connection accepted after the signal and every one without
// a response in flight; close-with-grace leaves the closing to you. Closing
// a listener resets the connections still waiting in the kernel's accept
// queue (with libuv accepting one per event-loop turn, a busy server can
// have many), and a connection accepted a moment ago whose request has not
// been read yet looks idle, though its request is on the way. Node's own
// server.close() does both since Node 19 (it closes "idle" connections).
// So, in order:
//  1. For the drain window (SHUTDOWN_DRAIN_MS) the server keeps accepting,
//     so connections already on their way are served, and every response
//     from the signal on says `Connection: close`.
//  2. Then it stops listening, in the first event-loop turn that accepted
//     nothing, when the accept queue is empty.
//  3. A connection closes when its last response is written; one that has
//     not sent its request yet is left to send it; an idle keep-alive
//     connection is closed at the end of the drain window (any keep-alive
//     server may close an idle connection, and clients expect it).
//  4. The process exits 0 once no connection is left; if any is still open
//     after SHUTDOWN_GRACE_MS, it exits 1, cutting them, and says so.
function closeGracefullyOnSignals (httpServer, name, { drainMs, graceMs }) {
  const sockets = new Set()
  let acceptedThisTurn = 0
  httpServer.on('connection', (socket) => {
    acceptedThisTurn++
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })

  let closing = false
  function onSignal (signal) {
    if (closing) {
      console.error(`${name}: ${signal} again, exiting now`)
      process.exit(1)
    }
    closing = true
    console.log(`${name}: ${signal} received, draining for ${drainMs} ms, then finishing in-flight requests`)
    httpServer.on('request', (req, res) => { res.shouldKeepAlive = false })
    setTimeout(stopListeningWhenQueueEmpty, drainMs)
    setTimeout(() => {
      console.error(`${name}: ${sockets.size} connection(s) still open after ${graceMs} ms: cut`)
      process.exit(1)
    }, graceMs).unref()
  }

  function stopListeningWhenQueueEmpty () {
    acceptedThisTurn = 0
    setImmediate(function afterPoll () {
      // The check phase follows the poll phase, where libuv accepts.
      if (acceptedThisTurn > 0) {
        acceptedThisTurn = 0
        return setImmediate(afterPoll)
      }
      // net's close, not http's: http's would also close the connections
      // accepted but not yet read from (step 3 keeps those).
      net.Server.prototype.close.call(httpServer, () => process.exit(0))
      for (const socket of sockets) {
        // An idle keep-alive connection: it has spoken, and no response is
        // pending on it (Node keeps the pending one in _httpMessage).
        if (socket.bytesRead > 0 && !socket._httpMessage) socket.end()
      }
    })
  }

  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

module.exports = { launch, urlOf }
