'use strict'

// launch() publishes { name, server, source } here once listening, for a preload (tooling/probe.js) to reach them.

const diagnosticsChannel = require('node:diagnostics_channel')

module.exports = diagnosticsChannel.channel('seed-case-study:launch')
