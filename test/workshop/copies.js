'use strict'

// Workshop copies of slow/, as a participant makes them with `workshop new`
// and then edits: for verify, the workshop's commands and the clinic lane.
// And copies of fixed/, plain or with its index.js edited, for verify's speed.

require('../untapped-children')
const fs = require('node:fs')
const path = require('node:path')
const { newCopy } = require('../../workshop')
const { exerciseNamed, asCopySource } = require('../../workshop/exercises')
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
 * teardown; `edit(source)`, if given, changes its index.js (and must).
 * Returns the folder.
 */
function fixedCopy (t, name, edit = null) {
  const folder = path.join(ROOT, testCopyName(name))
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }))
  fs.cpSync(path.join(ROOT, 'fixed'), folder, { recursive: true })
  if (edit) {
    const index = path.join(folder, 'index.js')
    const source = fs.readFileSync(index, 'utf8')
    const changed = edit(source)
    if (changed === source) throw new Error(`${name}: fixed/index.js no longer has what this copy edits`)
    fs.writeFileSync(index, changed)
  }
  return folder
}

// fixed/'s route, where it takes the representation of the content's
// version and minute, built once per change of either.
const REPRESENTATION = 'const representation = representationOf(content, version, req.url)'

/**
 * A copy that passes every level but still does fast/'s work on every
 * request: fixed/ with its representation built anew each time, the body
 * serialized with JSON.stringify and its ETag a sha512 of it (quoted, with
 * 304 and HEAD as fixed/ answers them). Only verify's speed tells it from
 * fixed/ (test/serial/workshop/speed.test.js). `edit(source)` changes the
 * code added (test/machine-mix.js scales its hashing or serialization).
 * Removed in teardown.
 */
function hashingCopy (t, name, edit = (source) => source) {
  return fixedCopy(t, name, (source) => source.replace(REPRESENTATION, 'const representation = hashedRepresentation(content, req.url, timestamp())') + edit(HASHED_REPRESENTATION))
}

const HASHED_REPRESENTATION = `
// fast/'s work on every request (test/workshop/copies.js, hashingCopy).
function hashedRepresentation (content, url, ts) {
  const { CACHE_CONTROL, seedBody } = require('../core/seed-contract')
  const body = JSON.stringify(seedBody(content, url, ts))
  const etag = '"' + require('node:crypto').createHash('sha512').update(body).digest('hex') + '"'
  return {
    etag,
    body,
    headers: { 'Cache-Control': CACHE_CONTROL, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ETag: etag },
    notModifiedHeaders: { 'Cache-Control': CACHE_CONTROL, ETag: etag }
  }
}
`

/**
 * A crypto exercise's copy (`workshop new crypto`) in the repo's root, named
 * by testCopyName, removed in teardown; with `source` (a file's path), its
 * index.js is that file instead, as a participant's fix would have it: the
 * story's fixed server (through the copy's rewriting of its requires) or a
 * wrong fix in fixtures/crypto/. Returns the folder.
 */
function cryptoCopy (t, name, source = null) {
  const folder = newCopy(testCopyName(name), { exercise: 'crypto', gitExclude: false })
  t.teardown(() => fs.rmSync(folder, { recursive: true, force: true }))
  if (source) {
    const text = asCopySource(fs.readFileSync(source, 'utf8'), exerciseNamed('crypto'), path.basename(folder))
    fs.writeFileSync(path.join(folder, 'index.js'), text)
  }
  return folder
}

module.exports = { TEST_COPY_PREFIX, testCopyName, workshopCopy, oneLineFixCopy, fixedCopy, hashingCopy, cryptoCopy }
