'use strict'

// Preloaded (`node -r`) by diagnose into the logging story's servers: their
// stdout becomes the file STDOUT_FILE, opened with O_DSYNC and written
// synchronously, as the bench's 'synchronous-file' targets' is: the case the
// story is about. Under clinic a server's stdout is otherwise a pipe to 0x,
// where console.log does not block.

const fs = require('node:fs')
const { Writable } = require('node:stream')
const { SYNCHRONOUS_FILE_FLAGS, NO_SYNCHRONOUS_FILE } = require('./synchronous-file')

const fd = fs.openSync(process.env.STDOUT_FILE, SYNCHRONOUS_FILE_FLAGS ?? noSynchronousFile())
// What Node itself builds for a stdout that is a file: every write a
// synchronous write(2).
const stdout = new Writable({
  write (chunk, encoding, callback) {
    fs.writeSync(fd, chunk)
    callback()
  }
})
stdout.fd = fd
Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => stdout })

function noSynchronousFile () {
  throw new Error(NO_SYNCHRONOUS_FILE)
}
