'use strict'

// Overload protection: while the event loop lags, answer 503 with Retry-After before routing. The lag is
// a timer's own lateness: monitorEventLoopDelay's reset() at each window forgets a delay in progress
// (docs/robustness.md). Not the overload-protection package: it answers in plain text, with its internal figures.

const { performance } = require('node:perf_hooks')

const RESOLUTION_MS = 10
const WINDOW_MS = 250
const BODY = JSON.stringify({ code: 'ServiceUnavailable', message: 'server overloaded, retry later' })

function protectFromOverload (server, { maxDelayMs, retryAfterSeconds = 1 }) {
  let overloaded = false
  let windowStart = performance.now()
  let windowMaxDelay = 0
  let due = windowStart + RESOLUTION_MS
  const timer = setInterval(() => {
    const now = performance.now()
    windowMaxDelay = Math.max(windowMaxDelay, now - due)
    due = now + RESOLUTION_MS
    if (now - windowStart >= WINDOW_MS) {
      overloaded = windowMaxDelay > maxDelayMs
      windowStart = now
      windowMaxDelay = 0
    }
  }, RESOLUTION_MS).unref()

  const headers = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(BODY),
    'Retry-After': String(retryAfterSeconds)
  }
  // `first` handlers run before restify routes or logs: the cheapest place to say no. false ends the request.
  server.first(function shedLoad (req, res) {
    if (!overloaded) return true
    res.writeHead(503, headers)
    res.end(BODY)
    return false
  })

  function stop () {
    clearInterval(timer)
  }
  server.once('close', stop)
  return { stop }
}

module.exports = { protectFromOverload }
