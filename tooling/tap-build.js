'use strict'

// postinstall: `tap build` (docs/tests.md, "Install scripts"); without tap (no dev dependencies) it says so.

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
