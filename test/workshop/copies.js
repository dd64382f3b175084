'use strict'

// Workshop copies of slow/, as a participant makes them with `workshop new`
// and then edits: for verify, the workshop's commands and the clinic lane.

require('../untapped-children')
const fs = require('node:fs')
const path = require('node:path')
const { newCopy } = require('../../workshop')

/**
 * A workshop copy of slow/ in the repo's root (where its requires resolve),
 * named `name` and this process, its etag.js changed by `edit(source)` (which
 * must change it), removed in teardown. Returns the folder.
 */
function workshopCopy (t, name, edit) {
  const folder = newCopy(`${name}-${process.pid}`, { gitExclude: false })
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

module.exports = { workshopCopy, oneLineFixCopy }
