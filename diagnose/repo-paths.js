'use strict'

// Where a profiled function's file is, as every diagnosis prints it: inside
// the repository (slow/etag.js, node_modules/restify/lib/server.js), and
// whether it is this repository's own code. Flame's frames (flame-frames.js)
// and the CPU profile's (cpu-profile.js) are judged by the same test.

const path = require('node:path')
const { pathInside } = require('../tooling/repo')

/**
 * Where `file` is inside the repository at `root`, as the tools print it
 * (slow/etag.js), or null: see pathInside. Once per file: a profile names
 * the same few hundred files in thousands of frames, and pathInside asks
 * the file system for both real paths each time.
 */
const repoPaths = new Map()
function repoPath (root, file) {
  const key = `${root}\0${file}`
  if (!repoPaths.has(key)) {
    const relative = pathInside(file, { dir: root })
    repoPaths.set(key, relative ? relative.split(path.sep).join('/') : null)
  }
  return repoPaths.get(key)
}

/**
 * The same for the repository's own code only: outside node_modules.
 */
function ownCodePath (root, file) {
  const shown = repoPath(root, file)
  return shown && !shown.split('/').includes('node_modules') ? shown : null
}

module.exports = { repoPath, ownCodePath }
