'use strict'

// Tap skip options: false where a test can run, else the reason it does
// not, which tap prints.

require('./untapped-children')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../tooling/repo')

// The Node line .nvmrc names: CI's main line. Tests of the measuring tools
// (a bench run, the browser's page) run on it only: what they check does not
// depend on the line, and CI's three npm test runs must fit in their time.
// The value is a tap skip option: false on that line, else the reason.
const NVMRC_LINE = fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()
const skipOffNvmrcLine = process.versions.node.split('.')[0] === NVMRC_LINE
  ? false
  : `checked on Node ${NVMRC_LINE} (.nvmrc), not ${process.version}`

// Tap skip options for what one system cannot do (false where it can).
// Windows has no signal a process can handle: kill('SIGTERM') and
// kill('SIGINT') end it outright, so no graceful shutdown runs.
const skipWithoutSignals = process.platform === 'win32'
  ? 'Windows: kill() ends a process outright; no SIGTERM or SIGINT handler runs'
  : false

module.exports = { skipOffNvmrcLine, skipWithoutSignals }
