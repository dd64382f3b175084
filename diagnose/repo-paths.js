'use strict'

// A profiled function's file as every diagnosis prints it (slow/etag.js), or null outside
// the repository (ownCodePath: in node_modules too). Cached: a profile names a file in many frames.

const path = require('node:path')
const { pathInside } = require('../tooling/repo')

const repoPaths = new Map()
function repoPath (root, file) {
  const key = `${root}\0${file}`
  if (!repoPaths.has(key)) {
    const relative = pathInside(file, { dir: root })
    repoPaths.set(key, relative ? relative.split(path.sep).join('/') : null)
  }
  return repoPaths.get(key)
}

function ownCodePath (root, file) {
  const shown = repoPath(root, file)
  return shown && !shown.split('/').includes('node_modules') ? shown : null
}

module.exports = { repoPath, ownCodePath }
