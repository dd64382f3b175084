'use strict'

// Where the tools find what they run: the repository's root, the variants
// of the case study, each a folder `node <variant>` starts, and the servers
// of the four stories beside it (stories/, each `node <file>`), both from
// the catalogue of targets (targets.js).

const fs = require('node:fs')
const path = require('node:path')
const { VARIANTS, STORY_SERVERS } = require('./targets')

const ROOT = path.join(__dirname, '..')

/**
 * The path from `from` to `to` as the tools print it, and the README shows
 * it: relative, with / between its parts on every system (slow/etag.js:25,
 * not slow\\etag.js:25 on Windows).
 */
function shownPath (from, to) {
  return path.relative(from, to).split(path.sep).join('/')
}

/**
 * Where `file` (an absolute path) is inside the folder `dir` (by default
 * the repository): its path relative to `dir`, '' for `dir` itself, or
 * null where it is outside. The one test of "inside" every tool uses.
 *
 * Real paths are compared: a clone or a TMPDIR reached through a symbolic
 * link (macOS's /var is one to /private/var) is where it is, while Node
 * names its modules, and V8 its stack frames, by their real paths. And a
 * path on another drive is outside: path.relative gives it back absolute
 * there (C:\repo to D:\mine is D:\mine), which starts with no `..`.
 * `paths` is path.win32 or path.posix in the tests, `realpath` the
 * identity there.
 */
function pathInside (file, { dir = ROOT, paths = path, realpath = realPath } = {}) {
  if (typeof file !== 'string' || !paths.isAbsolute(file)) return null
  const relative = paths.relative(realpath(dir), realpath(file))
  const outside = relative === '..' || relative.startsWith(`..${paths.sep}`) || paths.isAbsolute(relative)
  return outside ? null : relative
}

// The real path of `file`, which need not exist yet: that of its nearest
// existing folder, with the rest of the path on it.
function realPath (file) {
  try {
    return fs.realpathSync.native(file)
  } catch {
    const parent = path.dirname(file)
    return parent === file ? file : path.join(realPath(parent), path.basename(file))
  }
}

module.exports = { ROOT, VARIANTS, STORY_SERVERS, shownPath, pathInside, realPath }
