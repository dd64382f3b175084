'use strict'

// Where the tools find what they run: the repository's root, and the variants and story servers (targets.js).

const fs = require('node:fs')
const path = require('node:path')
const { VARIANTS, STORY_SERVERS } = require('./targets')

const ROOT = path.join(__dirname, '..')

function shownPath (from, to) {
  return path.relative(from, to).split(path.sep).join('/')
}

// `file`'s path relative to `dir` ('' for `dir`, null outside), by real paths: the one test of "inside".
function pathInside (file, { dir = ROOT, paths = path, realpath = realPath } = {}) {
  if (typeof file !== 'string' || !paths.isAbsolute(file)) return null
  const relative = paths.relative(realpath(dir), realpath(file))
  const outside = relative === '..' || relative.startsWith(`..${paths.sep}`) || paths.isAbsolute(relative)
  return outside ? null : relative
}

function realPath (file) {
  try {
    return fs.realpathSync.native(file)
  } catch {
    const parent = path.dirname(file)
    return parent === file ? file : path.join(realPath(parent), path.basename(file))
  }
}

module.exports = { ROOT, VARIANTS, STORY_SERVERS, shownPath, pathInside, realPath }
