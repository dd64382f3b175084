'use strict'

// How `npm run screenshot` finds and drives the browser, with shell scripts
// standing in for it: one that never answers `--version` is stopped and
// passed over, not waited on; on Windows, where chrome.exe answers
// `--version` by starting the browser, it is not asked at all; and the
// report reaches it as a file: URL even where its path has a # or a %.
// (A real Chromium renders in test/bench/html-browser.test.js.)

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pathToFileURL, fileURLToPath } = require('node:url')
const { findChromium, probeChromium, screenshot } = require('../../diagnose/screenshot')

const skip = process.platform === 'win32' && 'shell scripts stand in for the browser'

// A folder of its own, removed after the test, with `files` (name -> shell
// script) in it, executable.
function fakes (t, files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screenshot-test-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  for (const [name, script] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 })
  }
  return dir
}

// Writes a file beside itself when run, then never exits.
const NEVER_ANSWERS = 'touch "$(dirname "$0")/was-run"\nwhile :; do sleep 1; done'

// Without a timeout, a browser that never answers held the test (and
// `npm run screenshot`) until tap's limit: this one's is far below it.
t.test('a browser that never answers --version is stopped and passed over', { skip, timeout: 20000 }, async (t) => {
  const dir = fakes(t, { chromium: NEVER_ANSWERS })
  const reason = probeChromium(path.join(dir, 'chromium'), { timeoutMs: 300 })
  t.equal(reason, `${path.join(dir, 'chromium')} did not answer --version within 0.3 s (stopped)`, 'the probe says why')
  t.equal(findChromium({ platform: 'linux', env: { PATH: dir }, timeoutMs: 300 }), null, 'and none is found')
})

t.test('one that answers is found, on the PATH first', { skip }, async (t) => {
  const dir = fakes(t, { 'chromium-browser': 'echo "Chromium 1.2.3"' })
  t.equal(probeChromium(path.join(dir, 'chromium-browser')), null)
  t.equal(findChromium({ platform: 'linux', env: { PATH: dir } }), path.join(dir, 'chromium-browser'))
  t.equal(findChromium({ platform: 'linux', env: { PATH: path.join(dir, 'nothing-here') } }), null, 'and none where there is none')
})

t.test('on Windows the browser is found where it is, never started to ask', { skip }, async (t) => {
  const onPath = fakes(t, { 'chrome.exe': NEVER_ANSWERS })
  t.equal(findChromium({ platform: 'win32', env: { PATH: onPath }, timeoutMs: 300 }), path.join(onPath, 'chrome.exe'), 'on the PATH')
  const installed = fakes(t, { 'Google/Chrome/Application/chrome.exe': NEVER_ANSWERS })
  t.equal(findChromium({ platform: 'win32', env: { LOCALAPPDATA: installed }, timeoutMs: 300 }),
    path.join(installed, 'Google', 'Chrome', 'Application', 'chrome.exe'), 'where its installer puts it')
  t.notOk(fs.existsSync(path.join(onPath, 'was-run')), 'the one on the PATH was not run')
  t.notOk(fs.existsSync(path.join(installed, 'Google', 'Chrome', 'Application', 'was-run')), 'nor the installed one')
})

t.test('the report reaches the browser as a file: URL, # and % in its path', { skip }, async (t) => {
  // The fake writes its arguments, a line each, and the picture it is asked for.
  const dir = fakes(t, {
    chromium: 'printf "%s\\n" "$@" > "$(dirname "$0")/args"\nfor a in "$@"; do case "$a" in --screenshot=*) echo png > "$(printf %s "$a" | cut -d= -f2-)" ;; esac; done'
  })
  const folder = path.join(dir, 'run #1, 100%')
  fs.mkdirSync(folder)
  const report = path.join(folder, 'report.html')
  fs.writeFileSync(report, '<p>report</p>')
  const out = path.join(folder, 'report.png')
  t.equal(screenshot(report, out, path.join(dir, 'chromium')), out)
  t.ok(fs.existsSync(out), 'the picture is written')
  const url = fs.readFileSync(path.join(dir, 'args'), 'utf8').trim().split('\n').pop()
  t.equal(url, pathToFileURL(report).href, `the last argument is the report's URL: ${url}`)
  t.equal(fileURLToPath(url), report, 'which names the report, not a fragment or an escape of its path')
})
