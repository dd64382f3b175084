'use strict'

// `npm run cpu-hog -- [--processes N] [--seconds S]`: N busy processes (one per core by default) at the same
// priority as everything else, for S seconds or until Ctrl-C: a slower machine on purpose, to show that the
// benchmark's headline holds there too. Run it beside a benchmark: `npm run cpu-hog & npm start`.

const os = require('node:os')
const { fork } = require('node:child_process')
const { runAsProcess, parseCommandLine, numberOption } = require('./command')

const USAGE = `Usage: npm run cpu-hog -- [--processes N] [--seconds S]

Keeps N processes busy (default ${os.availableParallelism()}, one per core) for S seconds
(default 600), then stops them. Meant to run beside a benchmark, to see
the figures of a machine about half as fast.
`

// A child spins in slices, letting the event loop run between them to see whether the parent is gone:
// process.ppid is read once, at start-up, and 'disconnect' alone does not come under tap's process hooks.
const SLICE_MS = 50

if (process.argv[2] === '--spin') {
  const parent = Number(process.argv[4])
  const deadline = Date.now() + Number(process.argv[3]) * 1000
  const parentAlive = () => {
    try {
      process.kill(parent, 0)
      return true
    } catch (err) {
      return err.code === 'EPERM' // there, but not ours to signal
    }
  }
  process.on('disconnect', () => process.exit(0))
  ;(function spin () {
    if (!parentAlive() || Date.now() > deadline) process.exit(0)
    const sliceEnd = Date.now() + SLICE_MS
    while (Date.now() < sliceEnd) {} // eslint-disable-line no-empty -- the point is to burn CPU
    setImmediate(spin)
  })()
}

async function main (argv, { stdout }) {
  const { values } = parseCommandLine(argv, { processes: { type: 'string' }, seconds: { type: 'string' } })
  const processes = numberOption('processes', values.processes, os.availableParallelism(), { min: 1, integer: true })
  const seconds = numberOption('seconds', values.seconds, 600, { min: 1 })
  const children = Array.from({ length: processes }, () => fork(__filename, ['--spin', String(seconds), String(process.pid)], { stdio: 'ignore' }))
  stdout.write(`cpu-hog: ${processes} busy process(es) for ${seconds} s (pids ${children.map((c) => c.pid).join(', ')})\n`)
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, seconds * 1000)
    for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => { clearTimeout(timer); resolve() })
  })
  for (const child of children) child.kill('SIGKILL')
  stdout.write('cpu-hog: stopped\n')
  return 0
}

const command = { name: 'cpu-hog', usage: USAGE, main }

if (require.main === module && process.argv[2] !== '--spin') runAsProcess(command)

module.exports = { command }
