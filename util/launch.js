'use strict'

// What `node slow`, `node fast` and `node fixed` run: build the variant's
// server, listen, print the URL, and close gracefully on SIGINT and SIGTERM.
// The benchmark and the tests start variants through this same path.

const path = require('node:path')
const { createContentSource, CONTENT_URL } = require('./content')

const DEFAULT_PORT = 3000
const DEFAULT_HOST = '127.0.0.1'
// In-flight responses get this long to finish before connections are cut.
const SHUTDOWN_GRACE_MS = 5000

/**
 * Launch the server that `createServer` builds (or resolves to): a restify
 * server or a plain http.Server. `location` is the variant's folder or the
 * reference server's file: its name is what the start-up line prints.
 * Reads PORT (default 3000, 0 for any free port), HOST (default 127.0.0.1)
 * and SEED (makes the content reproducible) from `env`.
 * Resolves to the listening server.
 */
async function launch (createServer, location, env = process.env) {
  const name = path.basename(location, '.js')
  const port = parsePort(env.PORT)
  const host = env.HOST || DEFAULT_HOST
  const server = await createServer({ source: createContentSource({ seed: env.SEED }) })

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

module.exports = { launch, urlOf }
