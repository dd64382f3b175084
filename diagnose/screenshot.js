'use strict'

// `npm run screenshot -- <report.html> [out.png]`: a picture of a clinic
// report, rendered from the report itself by headless Chromium (Debian's
// `chromium` package; not a dependency of anything else here). The README's
// pictures come from this.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync, spawnSync } = require('node:child_process')

const CHROMIUM_CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome']
const WINDOW = '1400,1000'
// Clinic's reports draw with JavaScript after load; give them this long.
const RENDER_BUDGET_MS = 5000

/**
 * Render `report` (an HTML file) to `out` (a PNG). Returns `out`.
 */
function screenshot (report, out, chromium = findChromium()) {
  if (!chromium) throw new Error('no Chromium found: install Debian\'s `chromium` package (apt-get install chromium)')
  if (!fs.existsSync(report)) throw new Error(`no report at ${report}`)
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'screenshot-'))
  try {
    execFileSync(chromium, [
      '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
      // This machine's network is closed: no background connections.
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      `--user-data-dir=${profile}`, `--window-size=${WINDOW}`, `--virtual-time-budget=${RENDER_BUDGET_MS}`,
      `--screenshot=${path.resolve(out)}`, `file://${path.resolve(report)}`
    ], { stdio: 'ignore', timeout: 60000 })
  } finally {
    fs.rmSync(profile, { recursive: true, force: true })
  }
  return out
}

function findChromium () {
  return CHROMIUM_CANDIDATES.find((name) => !spawnSync(name, ['--version']).error) || null
}

if (require.main === module) {
  const [report, out = report && report.replace(/\.html$/, '.png')] = process.argv.slice(2)
  if (!report) {
    console.error('Usage: npm run screenshot -- <report.html> [out.png]')
    process.exitCode = 2
  } else {
    try {
      console.log(`wrote ${screenshot(report, out)}`)
    } catch (err) {
      console.error(`screenshot: ${err.message}`)
      process.exitCode = 1
    }
  }
}

module.exports = { screenshot }
