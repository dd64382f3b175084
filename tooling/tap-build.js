'use strict'

// package.json's postinstall: `tap build`, which builds tap's Test class
// with the plugins package.json's tap settings name (docs/tests.md,
// "Install scripts", says why at install time). tap is a dev dependency:
// an install without them (`npm ci --omit=dev`, the workshop's commands
// without the tests) has nothing to build, and says so instead of failing
// the install.

const path = require('node:path')
const { spawnSync } = require('node:child_process')

let tapPackage
try {
  tapPackage = require.resolve('tap/package.json')
} catch {
  console.log('postinstall: tap is not installed (an install without dev dependencies): nothing to build; npm test needs a whole `npm ci`')
  process.exit(0)
}
const tapBin = path.join(path.dirname(tapPackage), require(tapPackage).bin.tap)
const build = spawnSync(process.execPath, [tapBin, 'build'], { stdio: 'inherit' })
process.exitCode = build.status ?? 1
