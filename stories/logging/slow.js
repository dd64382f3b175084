'use strict'

// `node stories/logging/slow.js`: the case study's fixed server with an
// access log, one console.log per request.
//
// console.log writes to process.stdout, and Node writes stdout
// synchronously when it is a file or (on Linux and macOS) a terminal: the
// event loop waits for every line to reach the kernel, or the terminal to
// draw it, before it serves the next request. Into a pipe (`| cat`, most
// log collectors) the same write does not block on POSIX. See docs/stories.md,
// "Story: logging in the hot path".

const createFixedServer = require('../../fixed')
const { launch } = require('../../core/launch')
const { accessLogEntry } = require('./access-log')

function createServer (options) {
  const server = createFixedServer(options)
  server.pre(function logRequest (req, res, next) {
    console.log(JSON.stringify(accessLogEntry(req))) // the story's line: one write per request
    next()
  })
  return server
}

module.exports = createServer

if (require.main === module) launch(createServer, 'logging-slow')
