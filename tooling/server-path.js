'use strict'

// What a tool is pointed at: a variant's name (`slow`), a story's server
// (`stories/crypto/slow.js`), or the path of any server folder or file, such
// as a workshop participant's copy (`mine`, `./mine`, `mine/index.js`).

const fs = require('node:fs')
const path = require('node:path')
const { ROOT, VARIANTS, STORY_SERVERS, pathInside } = require('./repo')
const { UsageError } = require('./command')

/**
 * Resolve `text` to { entry, name }: `entry` the absolute path `node` runs,
 * `name` how the tools print it (relative to the repo's root when inside
 * it, with no trailing slash or `/index.js`). A relative path is taken from
 * where the user ran npm (npm sets INIT_CWD), or from `cwd`. Throws a
 * UsageError saying what to give when nothing is there. An answer of this
 * function is returned as it is: a command resolves its argument as it
 * parses it (a usage error exits 2 before anything starts) and hands the
 * answer to the tool, which takes a name or a path from its other callers.
 */
function resolveServerPath (text, { cwd = process.env.INIT_CWD || process.cwd() } = {}) {
  if (typeof text?.entry === 'string' && typeof text.name === 'string') return text
  if (typeof text !== 'string' || text === '') {
    throw new UsageError(`name a server: a variant (${VARIANTS.join(', ')}), a story's server, or the path of your own folder or file`)
  }
  const entry = [...VARIANTS, ...STORY_SERVERS].includes(text) ? path.join(ROOT, text) : path.resolve(cwd, text)
  if (!fs.existsSync(entry)) {
    throw new UsageError(`no file or folder at ${entry}: give a variant (${VARIANTS.join(', ')}), a story's server, or the path of your own server`)
  }
  return { entry, name: displayName(entry) }
}

/**
 * How the tools print the server at `entry`: relative to the repo's root,
 * with / between its parts, where it is inside (see pathInside); as given
 * elsewhere. Either way without the index.js of a folder's server: `mine`
 * for mine/index.js, and C:\work\mine for C:\work\mine\index.js on
 * Windows. `inside` is pathInside's options (the tests' path.win32).
 */
function displayName (entry, inside = {}) {
  const paths = inside.paths ?? path
  const server = paths.basename(entry) === 'index.js' ? paths.dirname(entry) : entry
  const relative = pathInside(server, inside)
  return relative ? relative.split(paths.sep).join('/') : server
}

module.exports = { resolveServerPath, displayName }
