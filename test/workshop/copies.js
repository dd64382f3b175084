'use strict'

// Workshop copies of slow/, as a participant makes them with `workshop new`
// and then edits: for verify, the workshop's commands and the clinic lane.
// And copies of fixed/, plain or with another index.js, for verify's speed.

require('../untapped-children')
const fs = require('node:fs')
const path = require('node:path')
const { newCopy } = require('../../workshop')
const { ROOT } = require('../../tooling/repo')

// A test's copy lives in the repo's root (where its requires resolve), and
// tap ends a file at its time limit without its teardown: the copy, a wrong
// fix with a syntax error perhaps, is then left behind. Its name starts with
// this, which the root .gitignore names, so git and the next npm test's lint
// pass it over.
const TEST_COPY_PREFIX = 'test-copy-'

// The folder name of a test's copy: the prefix, `name` and this process.
const testCopyName = (name) => `${TEST_COPY_PREFIX}${name}-${process.pid}`

/**
 * A workshop copy of slow/ in the repo's root, named by testCopyName, its
 * etag.js changed by `edit(source)` (which must change it), removed in
 * teardown. Returns the folder.
 */
function workshopCopy (t, name, edit) {
  const folder = newCopy(testCopyName(name), { gitExclude: false })
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }))
  const file = path.join(folder, 'etag.js')
  const source = fs.readFileSync(file, 'utf8')
  const changed = edit(source)
  t.not(changed, source, `${name}: etag.js changed`)
  fs.writeFileSync(file, changed)
  return folder
}

// A copy of slow/ with the one-line fix (fast/'s guard), as a participant
// makes it; removed in teardown.
function oneLineFixCopy (t, name) {
  return workshopCopy(t, name, (source) => source.replace('if (attachAfterEvent === true) return', 'if (afterEventAttached === true) return'))
}

/**
 * A copy of fixed/ in the repo's root, named by testCopyName, removed in
 * teardown; with `index` (a file's path), that file as its index.js.
 * Returns the folder.
 */
function fixedCopy (t, name, { index } = {}) {
  const folder = path.join(ROOT, testCopyName(name))
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }))
  fs.cpSync(path.join(ROOT, 'fixed'), folder, { recursive: true })
  if (index) fs.copyFileSync(index, path.join(folder, 'index.js'))
  return folder
}

// A copy that passes every level but serializes and hashes its body on
// every request (fixtures/hashing-per-request.js); removed in teardown.
function hashingCopy (t, name) {
  return fixedCopy(t, name, { index: path.join(__dirname, 'fixtures', 'hashing-per-request.js') })
}

module.exports = { TEST_COPY_PREFIX, testCopyName, workshopCopy, oneLineFixCopy, fixedCopy, hashingCopy }
