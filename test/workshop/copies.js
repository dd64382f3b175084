'use strict'

// Workshop copies of slow/, as a participant makes them with `workshop new`
// and then edits: for verify, the workshop's commands and the clinic lane.

require('../untapped-children')
const fs = require('node:fs')
const path = require('node:path')
const { newCopy } = require('../../workshop')

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

module.exports = { TEST_COPY_PREFIX, testCopyName, workshopCopy, oneLineFixCopy }
