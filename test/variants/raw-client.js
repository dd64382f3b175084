'use strict'

// A raw TCP client for the hostile-input and robustness tests: bytes no
// HTTP client would send, and the responses read back as text.

require('../untapped-children')
const net = require('node:net')

/**
 * Send `raw` bytes on a fresh connection to `origin`, then `trickle` every
 * `everyMs` (if given) while less than `trickleForMs` passed since the
 * connect began, and read until the server closes the connection or
 * `waitMs` passed. Resolves to { received (latin1), ms (until the close),
 * error (the socket's error code, if the close came with one: ECONNRESET) }.
 */
function rawExchange (origin, raw, { trickle = null, everyMs = 200, trickleForMs = Infinity, waitMs = 2000 } = {}) {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve) => {
    const started = Date.now()
    let dripping = null
    // The trickle starts once connected, after `raw`: a socket takes writes
    // while it connects, so one started sooner put its bytes before the
    // request line whenever the connection waited (a full listen backlog
    // delays it a second), and the server answered that garbage with 400
    // (hostile-input.test.js failed so, about one run in ten on an AMD EPYC).
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(raw)
      if (trickle) {
        dripping = setInterval(() => {
          if (Date.now() - started >= trickleForMs) clearInterval(dripping)
          else if (socket.writable) socket.write(trickle)
        }, everyMs)
      }
    })
    let received = ''
    let error = null
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => { received += chunk })
    socket.on('error', (err) => { error = err.code })
    const timer = setTimeout(() => socket.destroy(), waitMs)
    socket.on('close', () => {
      clearTimeout(timer)
      clearInterval(dripping)
      resolve({ received, ms: Date.now() - started, error })
    })
  })
}

/**
 * The status codes of the responses in `received`, in order.
 */
function statusesOf (received) {
  return [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]))
}

module.exports = { rawExchange, statusesOf }
