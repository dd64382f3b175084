'use strict'

// Overload protection, the case study's short-term mitigation: while the
// event loop lags, answer 503 with Retry-After at once instead of queueing
// requests behind the lag.
//
// Built on Node's perf_hooks.monitorEventLoopDelay rather than the
// overload-protection package (which does support restify): that package
// answers in plain text, showing its internal figures unless told it runs in
// production, and measures the delay with its own 5 ms setInterval, whereas
// monitorEventLoopDelay is sampled by libuv with no JavaScript on the loop.

const { monitorEventLoopDelay } = require('node:perf_hooks')

const WINDOW_MS = 250
const BODY = JSON.stringify({ code: 'ServiceUnavailable', message: 'server overloaded, retry later' })

/**
 * Make the restify `server` shed load: whenever the longest event-loop delay
 * seen in the last 250 ms window exceeded `maxDelayMs`, requests are answered
 * 503 (restify's JSON error shape, with Retry-After: `retryAfterSeconds`)
 * before restify routes them. Returns { stop() }; closing the server stops it too.
 */
function protectFromOverload (server, { maxDelayMs, retryAfterSeconds = 1 }) {
  const delays = monitorEventLoopDelay({ resolution: 10 })
  delays.enable()
  let overloaded = false
  const timer = setInterval(() => {
    overloaded = delays.max / 1e6 > maxDelayMs
    delays.reset()
  }, WINDOW_MS).unref()

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
    delays.disable()
  }
  server.once('close', stop)
  return { stop }
}

module.exports = { protectFromOverload }
