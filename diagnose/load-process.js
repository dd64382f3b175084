'use strict'

// The load of one diagnosis, autocannon, in a process of its own: beside the
// reader of the server's stdout it slows that reader, and the server's blocked
// writes show in Flame as its own time. docs/diagnose.md, "Flame on fixed".

const autocannon = require('autocannon')

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
