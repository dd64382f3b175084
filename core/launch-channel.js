'use strict'

// The diagnostics channel on which launch() publishes { name, server,
// source } once the server listens: the server and the content source it was
// built with. A tool preloaded into the server's process (tooling/probe.js)
// subscribes to it to reach them, so the launcher keeps no module-level
// reference for it.

const diagnosticsChannel = require('node:diagnostics_channel')

module.exports = diagnosticsChannel.channel('seed-case-study:launch')
