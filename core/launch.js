'use strict'

// What `node slow`, `node fast` and `node fixed` run: build the server, listen, print the URL, and close
// gracefully on SIGINT and SIGTERM. Tools learn the port through tooling/probe.js, not the printed line.

const net = require('node:net')
const path = require('node:path')
const { createContentSource } = require('./content')
const { SEED_PATH } = require('./seed-contract')
const launchChannel = require('./launch-channel')
const { protectFromOverload } = require('./overload')
const { unsupportedNodeLine } = require('./node-support')

const DEFAULT_PORT = 3000
const DEFAULT_HOST = '127.0.0.1'
// After a signal the server keeps accepting for the drain, and cuts what is still open after the grace.
const DEFAULT_DRAIN_MS = 500
const SHUTDOWN_GRACE_MS = 5000
// Slow clients (slowloris) get 408: tighter than Node's defaults, and checked every second.
const DEFAULT_HEADERS_TIMEOUT_MS = 10000
const DEFAULT_REQUEST_TIMEOUT_MS = 30000
const TIMEOUT_CHECK_INTERVAL_MS = 1000

// Launch what `createServer` builds (restify or http.Server), named after `location`; `env` as in docs/running.md.
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
  // restify builds its http.Server without options; Node reads this when the server starts listening.
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

// Shutdown loses nothing promised: each client gets its whole response or a refused connection, never a
// reset. Not server.close() or a shutdown library: they close the listener at once, which resets connections
// still in the kernel's accept queue, and end connections whose request is not read yet. So: keep accepting
// for drainMs, each response saying `Connection: close`; stop listening in a turn that accepted nothing; close
// idle keep-alive connections; exit 0 once none is left, or 1 (cutting them) after graceMs.
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
      // net's close, not http's: http's would also close connections accepted but not yet read from.
      net.Server.prototype.close.call(httpServer, () => process.exit(0))
      for (const socket of sockets) {
        // An idle keep-alive connection: it has spoken and has no response pending (_httpMessage).
        if (socket.bytesRead > 0 && !socket._httpMessage) socket.end()
      }
    })
  }

  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

module.exports = { launch, urlOf }
