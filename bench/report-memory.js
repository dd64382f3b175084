'use strict'

// Preloaded into a variant's process by bench/soak.js (`node --expose-gc -r
// ./bench/report-memory.js <variant>`): answers each 'sample' message on the
// IPC channel with the process's memory after a full GC (so heapUsed is what
// is really retained) and the server's count of 'after' listeners.

const { launchedServer } = require('../util/launch')

if (process.send) {
  process.on('message', (message) => {
    if (message !== 'sample') return
    if (global.gc) global.gc()
    const { rss, heapUsed } = process.memoryUsage()
    const server = launchedServer()
    process.send({ rss, heapUsed, afterListeners: server ? server.listenerCount('after') : null })
  })
  process.channel.unref() // the channel alone must not keep the server alive
}
