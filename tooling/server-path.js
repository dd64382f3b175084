'use strict'

// What a tool is pointed at: a variant's name (`slow`), a story's server
// (`stories/crypto/slow.js`), or the path of any server folder or file, such
// as a workshop participant's copy (`mine`, `./mine`, `mine/index.js`).

const fs = require('node:fs')
const path = require('node:path')
const { ROOT, VARIANTS, STORY_SERVERS, shownPath } = require('./repo')
const { UsageError } = require('./command')

/**
 * Resolve `text` to { entry, name }: `entry` the absolute path `node` runs,
 * `name` how the tools print it (relative to the repo's root when inside
 * it, with no trailing slash or `/index.js`). A relative path is taken from
 * where the user ran npm (npm sets INIT_CWD), or from `cwd`. Throws a
 * UsageError saying what to give when nothing is there.
 */
function resolveServerPath (text, { cwd = process.env.INIT_CWD || process.cwd() } = {}) {
  if (typeof text !== 'string' || text === '') {
    throw new UsageError(`name a server: a variant (${VARIANTS.join(', ')}), a story's server, or the path of your own folder or file`)
  }
  const entry = [...VARIANTS, ...STORY_SERVERS].includes(text) ? path.join(ROOT, text) : path.resolve(cwd, text)
  if (!fs.existsSync(entry)) {
    throw new UsageError(`no file or folder at ${entry}: give a variant (${VARIANTS.join(', ')}), a story's server, or the path of your own server`)
  }
  return { entry, name: displayName(entry) }
}

function displayName (entry) {
  const relative = path.relative(ROOT, entry)
  const inside = relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
  const shown = inside ? shownPath(ROOT, entry) : entry
  return shown.replace(/\/index\.js$/, '')
}

module.exports = { resolveServerPath }
