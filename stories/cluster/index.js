'use strict'

// `node stories/cluster`: the case study's fixed server as WORKERS processes
// (default: one per core, os.availableParallelism()) behind node:cluster.
// The primary accepts connections and hands them to the workers in turn;
// each worker is `fixed`, started as `node fixed` starts it.
//
// SIGTERM to the primary is passed to every worker, which stops as `node
// fixed` stops (finishing what it promised); the primary exits when the last
// worker has. SIGINT is not passed on: Ctrl-C in a terminal reaches every
// process of the group, the workers included, and a second signal would cut
// them short.

const cluster = require('node:cluster')
const os = require('node:os')
const createFixedServer = require('../../fixed')
const { launch } = require('../../core/launch')

if (cluster.isPrimary) {
  const workers = workerCount(process.env.WORKERS)
  let stopping = false
  for (let i = 0; i < workers; i++) cluster.fork()
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      console.error(`cluster: worker ${worker.process.pid} died (${signal || `code ${code}`}), starting another`)
      return cluster.fork()
    }
    if (Object.keys(cluster.workers).length === 0) process.exit(0)
  })
  process.on('SIGTERM', () => {
    stopping = true
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM')
  })
  process.on('SIGINT', () => { stopping = true })
  // The primary listens as soon as the first worker does; this line says
  // when every worker takes its share.
  let listening = 0
  cluster.on('listening', () => {
    if (++listening === workers) console.log(`cluster: all ${workers} workers listening`)
  })
  console.log(`cluster: starting ${workers} workers`)
} else {
  launch(createFixedServer, 'cluster-worker')
}

function workerCount (value) {
  if (value === undefined || value === '') return os.availableParallelism()
  const count = Number(value)
  if (!Number.isInteger(count) || count < 1) {
    console.error(`WORKERS must be an integer >= 1, got ${JSON.stringify(value)}`)
    process.exit(2)
  }
  return count
}
