'use strict'

// What both servers of the logging story log for each request.

/** The fields of one access-log line for `req`. */
function accessLogEntry (req) {
  return { time: Date.now(), method: req.method, url: req.url, userAgent: req.headers['user-agent'] }
}

module.exports = { accessLogEntry }
