'use strict'

// The load of one clinic run (clinic-run.js), in a process of its own:
// autocannon for a number of requests or seconds against the server clinic
// started.
//
// Not in clinic-run.js's own process: that process reads the server's
// stdout, where Flame (0x, which runs the server with --print-opt-source)
// has V8 write the source of every function it optimizes, thousands of
// small writes from the server's main thread. With autocannon in the same
// event loop, the reader fell behind, the socket filled, and the server
// sat blocked in write() for up to a tenth of a second at a time (strace
// shows it): ticks that Flame's default view gives to whichever of the
// server's functions was running, such as ifNoneMatchMatches, made to look
// costly in a short profile of fixed. docs/diagnose.md, "Flame on fixed".
//
// parent -> child  { type: 'load', port, load } (load as in clinic-run.js)
// child -> parent  { type: 'result', result }: see runLoad; then it exits.
// The parent gone, it stops.

const autocannon = require('autocannon')

// autocannon for a number of requests or seconds. Resolves to { requests,
// ok (2xx), non2xx, errors, timeouts, seconds, stopped, cpuMs (this
// process's CPU time, start-up included) }; never rejects: a load that
// could not run is one that got no 2xx.
function runLoad (port, { path: urlPath, connections, duration, amount, headers, timeLimitSeconds }) {
  return new Promise((resolve) => {
    const url = `http://127.0.0.1:${port}${urlPath}`
    let stopped = false
    const cpuMs = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000 }
    const instance = autocannon({ url, connections, headers, ...(amount ? { amount } : { duration }) }, (err, result) => {
      clearTimeout(timer)
      if (err) return resolve({ requests: 0, ok: 0, non2xx: 0, errors: 1, timeouts: 0, seconds: 0, stopped, cpuMs: cpuMs(), error: err.message })
      resolve({
        requests: result.requests.total,
        ok: result['2xx'],
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        seconds: result.duration,
        stopped,
        cpuMs: cpuMs()
      })
    })
    // A server too slow to answer `amount` requests in time is loaded for as
    // long as the run may last, no longer.
    const timer = setTimeout(() => { stopped = true; instance.stop() }, timeLimitSeconds * 1000)
  })
}

module.exports = { runLoad }

if (require.main === module) {
  require('../tooling/late-timer-warning').hideRetimerLateTimerWarning()
  process.once('message', ({ type, port, load }) => {
    if (type !== 'load') return
    runLoad(port, load).then((result) => {
      process.send({ type: 'result', result }, () => process.disconnect())
    })
  })
  process.once('disconnect', () => process.exit())
}
