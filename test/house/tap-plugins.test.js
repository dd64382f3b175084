'use strict'

// package.json's tap settings leave out the plugins no test uses
// (docs/tests.md, "CI"). tap builds its Test class from that list into
// node_modules/@tapjs/test/test-built, but npm ci installs the build with
// every plugin in, and the runner gives each test process the --import
// loaders of the build it loaded itself: before package.json's postinstall
// ran `tap build`, the first npm test after npm ci started every file with
// the TypeScript and mock loaders (tap rebuilt during that run, so the next
// run was right). This file is one of those processes, and checks its own
// start.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')

const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
const PLUGIN_SETTINGS = PACKAGE.tap.plugin
const LEFT_OUT = PLUGIN_SETTINGS.filter((name) => name.startsWith('!')).map((name) => name.slice(1))

// tap's default plugins, which the settings take from and add to, as
// @tapjs/config reads them (its package exports no path to the list).
const TAP_TEST_DIR = path.dirname(require.resolve('@tapjs/test/package.json'))
const { defaultPlugins } = require(path.join(TAP_TEST_DIR, 'dist', 'commonjs', 'default-plugins.js'))

// The plugin list package.json asks for, one a line in alphabetical order,
// as tap's `signature` of a build is written.
function signatureOf (settings) {
  const plugins = new Set(defaultPlugins)
  for (const name of settings) {
    if (name.startsWith('!')) plugins.delete(name.slice(1))
    else plugins.add(name)
  }
  return [...plugins].sort((a, b) => a.localeCompare(b, 'en')).join('\n')
}

t.test('package.json leaves out the TypeScript and mock plugins', async (t) => {
  t.ok(LEFT_OUT.includes('@tapjs/typescript'), `left out: ${LEFT_OUT.join(', ')}`)
  t.ok(LEFT_OUT.includes('@tapjs/mock'))
})

t.test('this process was started without a left-out plugin\'s loader', async (t) => {
  const started = [...process.execArgv, process.env.NODE_OPTIONS ?? '']
  const loaders = started.join(' ').replace(/"/g, '').match(/--(?:import|loader)[= ]\S+/g) ?? []
  for (const plugin of LEFT_OUT) {
    const named = new RegExp(plugin.replace('/', '[/\\\\]'))
    t.same(loaders.filter((loader) => named.test(loader)), [], `no ${plugin} loader among ${loaders.join(' ') || 'none'}`)
  }
})

// The runner's build, read as text: imported into this process beside the
// CommonJS build that require('tap') loaded, it fails to initialize.
function esmBuild () {
  const text = fs.readFileSync(path.join(TAP_TEST_DIR, 'test-built', 'dist', 'esm', 'index.js'), 'utf8')
  const signature = /^export const signature = `([^`]*)`;$/m.exec(text)
  const importLoaders = /^export const importLoaders = (\[[^\]]*\])/m.exec(text)
  return { signature: signature?.[1], importLoaders: importLoaders ? JSON.parse(importLoaders[1]) : null }
}

t.test('the Test class tap built has the plugins package.json names, in both its builds', async (t) => {
  const expected = signatureOf(PLUGIN_SETTINGS)
  t.equal(require('@tapjs/test').signature, expected, 'CommonJS: what require(\'tap\') loads')
  const esm = esmBuild()
  t.equal(esm.signature, expected, 'ESM: what the runner loads, and takes each file\'s loaders from')
  t.ok(Array.isArray(esm.importLoaders), 'its --import loaders found')
  for (const plugin of LEFT_OUT) {
    t.notOk(esm.importLoaders?.some((loader) => loader.startsWith(plugin + '/')), `no ${plugin} loader in the build: ${esm.importLoaders?.join(', ') || 'none'}`)
  }
})

t.test('the list is read as tap reads it', async (t) => {
  t.equal(signatureOf(['!@tapjs/mock', 'my-plugin']).split('\n').includes('@tapjs/mock'), false, 'a ! leaves one out')
  t.ok(signatureOf(['my-plugin']).split('\n').includes('my-plugin'), 'a name adds one')
  t.equal(signatureOf([]), [...defaultPlugins].sort().join('\n'), 'nothing named: the defaults')
})
