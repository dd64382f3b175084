'use strict'

// Overload protection, the case study's short-term mitigation: while the
// event loop lags, answer 503 with Retry-After at once instead of queueing
// requests behind the lag.
//
// The delay is measured by a timer's own lateness, every 10 ms, the way
// Node's monitorEventLoopDelay measures it, but in JavaScript: that
// histogram's reset() forgets the delay in progress, and a window starts
// with a reset. Under load that is every burst: the window that ends the
// shedding admits the requests waiting, their work runs right after the
// reset, and the next window sees none of it, so the server shed in its
// first seconds and then let every burst in (docs/robustness.md, "Overload
// protection", has what was measured).
// One callback every 10 ms costs microseconds a second. (Not the
// overload-protection package, which does support restify: it answers in
// plain text, showing its internal figures unless told it runs in
// production.)

const { performance } = require('node:perf_hooks')

const RESOLUTION_MS = 10
const WINDOW_MS = 250
const BODY = JSON.stringify({ code: 'ServiceUnavailable', message: 'server overloaded, retry later' })

/**
 * Make the restify `server` shed load: whenever the longest event-loop delay
 * seen in the last 250 ms window exceeded `maxDelayMs`, requests are answered
 * 503 (restify's JSON error shape, with Retry-After: `retryAfterSeconds`)
 * before restify routes them. Returns { stop() }; closing the server stops it too.
 */
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
  // `first` handlers run before restify decorates, routes or logs the
  // request: the cheapest place to say no. Returning false ends the request.
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
