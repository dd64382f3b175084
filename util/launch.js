'use strict'

// What `node slow`, `node fast` and `node fixed` run: build the variant's
// server, listen, print the URL, and close gracefully on SIGINT and SIGTERM.
// The benchmark and the tests start variants through this same path.

const path = require('node:path')
const { createContentSource, CONTENT_URL } = require('./content')
const { protectFromOverload } = require('./overload')

const DEFAULT_PORT = 3000
const DEFAULT_HOST = '127.0.0.1'
// In-flight responses get this long to finish before connections are cut.
const SHUTDOWN_GRACE_MS = 5000

let launched = null

/**
 * Launch the server that `createServer` builds (or resolves to): a restify
 * server or a plain http.Server. `location` is the variant's folder or the
 * reference server's file: its name is what the start-up line prints.
 * Reads from `env`: PORT (default 3000, 0 for any free port), HOST (default
 * 127.0.0.1), SEED (makes the content reproducible), and for restify servers
 * OVERLOAD_MAX_DELAY_MS (opt-in overload protection: 503 while the event
 * loop lags more than this) with OVERLOAD_RETRY_AFTER_S (default 1).
 * Resolves to the listening server.
 */
async function launch (createServer, location, env = process.env) {
  const name = path.basename(location, '.js')
  const port = parsePort(env.PORT)
  const host = env.HOST || DEFAULT_HOST
  const server = await createServer({ source: createContentSource({ seed: env.SEED }) })
  const overload = parseOverloadOptions(env)
  if (overload) {
    protectFromOverload(server, overload)
    console.log(`${name}: overload protection on: 503 while event-loop delay > ${overload.maxDelayMs} ms`)
  }
  launched = server

  server.on('error', (err) => {
    console.error(`${name}: cannot listen on ${host}:${port}: ${err.message}`)
    process.exit(1)
  })
  server.listen(port, host, () => {
    console.log(`${name} listening on ${urlOf(server)}${CONTENT_URL}`)
  })
  closeGracefullyOnSignals(server, name)
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

function closeGracefullyOnSignals (server, name) {
  let closing = false
  function onSignal (signal) {
    if (closing) {
      console.error(`${name}: ${signal} again, exiting now`)
      process.exit(1)
    }
    closing = true
    console.log(`${name}: ${signal} received, finishing in-flight requests`)
    const httpServer = server.server || server // restify wraps an http.Server
    // Node keeps a keep-alive connection open after close() until it idles
    // out; end each one as soon as its in-flight response is written instead:
    // answers from now on say `Connection: close`, and connections already
    // waiting for an answer are dropped the moment they become idle.
    httpServer.on('request', (req, res) => { res.shouldKeepAlive = false })
    httpServer.keepAliveTimeout = 1
    server.close(() => process.exit(0))
    setTimeout(() => httpServer.closeAllConnections(), SHUTDOWN_GRACE_MS).unref()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}

/**
 * The server the last launch() started in this process, or null: for tools
 * preloaded into a variant's process (bench/report-memory.js).
 */
function launchedServer () {
  return launched
}

module.exports = { launch, launchedServer, urlOf }
