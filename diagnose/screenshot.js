'use strict'

// `npm run screenshot -- <report.html> [out.png]`: a clinic report rendered to a
// PNG by headless Chromium. The pictures in the README and docs/ come from this.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pathToFileURL } = require('node:url')
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
const RENDER_TIMEOUT_MS = 60000
// A browser that has not answered `--version` by then (a wrapper waiting on something) is passed over.
const VERSION_TIMEOUT_MS = 10000

function screenshot (report, out, chromium = findChromium()) {
  if (!chromium) throw new Error(`no Chromium found: ${NO_CHROMIUM_HINT}`)
  if (!fs.existsSync(report)) throw new Error(`no report at ${report}`)
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'screenshot-'))
  try {
    execFileSync(chromium, [
      '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      `--user-data-dir=${profile}`, `--window-size=${WINDOW}`, `--virtual-time-budget=${RENDER_BUDGET_MS}`,
      // A URL of the path: a # or % in a folder's name would start a fragment or an escape.
      `--screenshot=${path.resolve(out)}`, pathToFileURL(path.resolve(report)).href
    ], { stdio: 'ignore', timeout: RENDER_TIMEOUT_MS, killSignal: 'SIGKILL' })
  } finally {
    fs.rmSync(profile, { recursive: true, force: true })
  }
  return out
}

// The first browser that runs, on the PATH or else where installers put one, as an
// absolute path (puppeteer wants one), or null.
function findChromium ({ platform = process.platform, env = process.env, timeoutMs = VERSION_TIMEOUT_MS } = {}) {
  const folders = (env.PATH || '').split(path.delimiter).filter(Boolean)
  const names = platform === 'win32' ? CHROMIUM_CANDIDATES.map((name) => `${name}.exe`).concat('chrome.exe') : CHROMIUM_CANDIDATES
  const onPath = names.flatMap((name) => folders.map((folder) => path.join(folder, name)))
  const candidates = [...onPath, ...installedBrowsers(platform, env)]
  return candidates.find((file) => isFile(file) && (platform === 'win32' || probeChromium(file, { timeoutMs }) === null)) ?? null
}

// Why `file` will not do, or null. Not asked on Windows: chrome.exe prints no version and stays.
function probeChromium (file, { timeoutMs = VERSION_TIMEOUT_MS } = {}) {
  // No pipes: a child the browser leaves behind cannot hold the call open.
  const { error } = spawnSync(file, ['--version'], { stdio: 'ignore', timeout: timeoutMs, killSignal: 'SIGKILL' })
  if (!error) return null
  if (error.code === 'ETIMEDOUT') return `${file} did not answer --version within ${timeoutMs / 1000} s (stopped)`
  return `${file} does not run: ${error.message}`
}

function isFile (file) {
  try {
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}

function installedBrowsers (platform, env) {
  if (platform === 'darwin') {
    return ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium']
  }
  if (platform === 'win32') {
    return [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA]
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

module.exports = { screenshot, findChromium, probeChromium, NO_CHROMIUM_HINT, command }

if (require.main === module) runAsProcess(command)
