'use strict'

// `npm run screenshot -- <report.html> [out.png]`: a picture of a clinic
// report, rendered from the report itself by headless Chromium (Debian's
// `chromium` package; not a dependency of anything else here). The pictures
// in the README and docs/ come from this.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync, spawnSync } = require('node:child_process')
const { runAsProcess, parseCommandLine, UsageError } = require('../tooling/command')

const USAGE = `Usage: npm run screenshot -- <report.html> [out.png]

Renders a clinic report to a PNG with headless Chromium (default: the
report's name with .png). Exit codes: 0 written, 1 it could not be, 2 bad
arguments.
`

const CHROMIUM_CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome']
const NO_CHROMIUM_HINT = process.platform === 'linux'
  ? 'install Debian\'s `chromium` package (apt-get install chromium)'
  : 'install Google Chrome or Chromium where its installer puts it'
const WINDOW = '1400,1000'
// Clinic's reports draw with JavaScript after load; give them this long.
const RENDER_BUDGET_MS = 5000

/**
 * Render `report` (an HTML file) to `out` (a PNG). Returns `out`.
 */
function screenshot (report, out, chromium = findChromium()) {
  if (!chromium) throw new Error(`no Chromium found: ${NO_CHROMIUM_HINT}`)
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

// The first of CHROMIUM_CANDIDATES on the PATH that runs, or else of the
// places macOS and Windows install Chrome or Chromium, as an absolute path
// (puppeteer wants one), or null.
function findChromium () {
  const folders = (process.env.PATH || '').split(path.delimiter).filter(Boolean)
  const names = process.platform === 'win32' ? CHROMIUM_CANDIDATES.map((name) => `${name}.exe`).concat('chrome.exe') : CHROMIUM_CANDIDATES
  const onPath = names.flatMap((name) => folders.map((folder) => path.join(folder, name)))
  const candidates = [...onPath, ...installedBrowsers()]
  return candidates.find((file) => fs.existsSync(file) && !spawnSync(file, ['--version']).error) ?? null
}

// Where the installers put them, off the PATH.
function installedBrowsers () {
  if (process.platform === 'darwin') {
    return ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium']
  }
  if (process.platform === 'win32') {
    return [process.env.PROGRAMFILES, process.env['PROGRAMFILES(X86)'], process.env.LOCALAPPDATA]
      .filter(Boolean)
      .flatMap((root) => [path.join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'), path.join(root, 'Chromium', 'Application', 'chrome.exe')])
  }
  return []
}

async function main (argv, { stdout }) {
  const { positionals } = parseCommandLine(argv, {}, { positionals: true })
  const [report, out = report && report.replace(/\.html$/, '.png'), ...rest] = positionals
  if (!report) throw new UsageError('name the report to render')
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  stdout.write(`wrote ${screenshot(report, out)}\n`)
  return 0
}

const command = { name: 'screenshot', usage: USAGE, main }

module.exports = { screenshot, findChromium, NO_CHROMIUM_HINT, command }

if (require.main === module) runAsProcess(command)
