'use strict'

// `node stories/logging/fixed.js`: the same access log through pino,
// writing asynchronously. Lines collect in a buffer and leave in one write
// per MIN_WRITE_BYTES, off the request's path, whatever stdout is. pino
// writes what is left synchronously when the process exits (its
// destination registers for that), so a graceful stop loses no line.

const pino = require('pino')
const createFixedServer = require('../../fixed')
const { launch } = require('../../core/launch')
const { accessLogEntry } = require('./access-log')

// pino's own example for asynchronous logging: a 4 KiB buffer, some fifty
// of these lines.
const MIN_WRITE_BYTES = 4096

function createServer (options, destination = pino.destination({ dest: 1, sync: false, minLength: MIN_WRITE_BYTES })) {
  const logger = pino({ base: null }, destination)
  const server = createFixedServer(options)
  server.pre(function logRequest (req, res, next) {
    logger.info(accessLogEntry(req)) // the story's line, buffered
    next()
  })
  return server
}

module.exports = createServer

if (require.main === module) launch(createServer, 'logging-fixed')
