'use strict'

require('../untapped-children')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

// NODE_V8_COVERAGE set for this test, as a harness with coverage on sets it
// for every child: the measuring tools must start their servers without it.
// Restored, and its folder removed, when the test ends.
function withCoverageRequested (t, prefix) {
  const coverageDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`))
  const before = process.env.NODE_V8_COVERAGE
  process.env.NODE_V8_COVERAGE = coverageDir
  t.teardown(() => {
    if (before === undefined) delete process.env.NODE_V8_COVERAGE
    else process.env.NODE_V8_COVERAGE = before
    fs.rmSync(coverageDir, { recursive: true, force: true })
  })
  return coverageDir
}

module.exports = { withCoverageRequested }
