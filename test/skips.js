'use strict'

// Tap skip options: false where a test can run, else the reason it does
// not, which tap prints.

require('./untapped-children')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../tooling/repo')

// The main Node line: the one .nvmrc names, on which CI diagnoses and
// benchmarks (test/ci/workflow.test.js holds .nvmrc to CI's lines).
const MAIN_LINE = fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()

// For a test whose answer is a measurement (a speed, a count of
// instructions): the figure moves with the Node line (V8's compiler, its
// garbage collector), and such a test takes seconds of load, so it runs
// once, on the main line. What answers the same on every line (exit codes,
// usage errors, check:curl's verdicts, the HTML page) runs on each.
// `measurement` says what is measured, in words a participant reads in
// tap's output; `version` is in process.version's form.
function skipOffMainLine (measurement, version = process.version) {
  return version.replace(/^v/, '').split('.')[0] === MAIN_LINE
    ? false
    : `${measurement}: it is checked on Node ${MAIN_LINE}, the line .nvmrc names, and this is Node ${version}`
}

// Tap skip options for what one system cannot do (false where it can).
// Windows has no signal a process can handle: kill('SIGTERM') and
// kill('SIGINT') end it outright, so no graceful shutdown runs.
const skipWithoutSignals = process.platform === 'win32'
  ? 'Windows: kill() ends a process outright; no SIGTERM or SIGINT handler runs'
  : false

// clinic is an optional dependency: `npm ci --omit=optional` leaves it
// out, and the tests that read its packages say so.
const skipWithoutClinic = (() => {
  try {
    require.resolve('clinic/package.json')
    return false
  } catch {
    return 'clinic is not installed (an install with --omit=optional leaves it out; `npm ci` adds it)'
  }
})()

module.exports = { MAIN_LINE, skipOffMainLine, skipWithoutSignals, skipWithoutClinic }
