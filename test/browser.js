'use strict'

// A page the tools write, opened from disk in headless Chromium (Debian's
// `chromium`, driven by puppeteer-core) with the network cut: the bench's
// report (bench/html-browser.test.js) and the CPU profile's flame graph
// (diagnose/profile.test.js). Skipped, saying why, where Chromium is not
// installed.

require('./untapped-children')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pathToFileURL } = require('node:url')
const { findChromium, NO_CHROMIUM_HINT } = require('../diagnose/screenshot')

const chromium = findChromium()
// A tap skip option: false where Chromium is here, else why not.
const noChromium = !chromium && `no Chromium here: ${NO_CHROMIUM_HINT}`

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/**
 * Headless Chromium with a profile folder of its own, closed (and the
 * folder removed) when test `t` ends.
 */
async function launchBrowser (t) {
  const puppeteer = require('puppeteer-core')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-'))
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: LAUNCH_ARGS, userDataDir: dir })
  t.teardown(async () => {
    await browser.close()
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 })
  })
  return browser
}

/**
 * A new page of `browser` in colour `scheme`, offline, every request but
 * the page's own (file: and data: URLs) refused, and the file `html`
 * loaded: { page, refused (the URLs refused or failed), errors (console
 * errors and uncaught exceptions) }.
 */
async function openOffline (browser, html, { scheme = 'light' } = {}) {
  const page = await browser.newPage()
  await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }])
  await page.setViewport({ width: 1280, height: 900 })
  await page.setOfflineMode(true)
  const refused = []
  const errors = []
  await page.setRequestInterception(true)
  page.on('request', (request) => {
    if (request.url().startsWith('file://') || request.url().startsWith('data:')) return request.continue()
    refused.push(request.url())
    request.abort()
  })
  page.on('requestfailed', (request) => refused.push(`${request.url()} (failed)`))
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
  page.on('pageerror', (err) => errors.push(err.message))
  // A URL of the path: a # or % in it would start a fragment or an escape.
  await page.goto(pathToFileURL(html).href, { waitUntil: 'load' })
  return { page, refused, errors }
}

module.exports = { noChromium, launchBrowser, openOffline }
