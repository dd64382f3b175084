'use strict'

// What a tool is pointed at: a variant's name, a story's server, or the path of any server folder or file.

const fs = require('node:fs')
const path = require('node:path')
const { ROOT, VARIANTS, STORY_SERVERS, pathInside } = require('./repo')
const { UsageError } = require('./command')

// `text` as { entry, name }, a relative path taken from where the user ran npm; an answer passes through.
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

function displayName (entry, inside = {}) {
  const paths = inside.paths ?? path
  const server = paths.basename(entry) === 'index.js' ? paths.dirname(entry) : entry
  const relative = pathInside(server, inside)
  return relative ? relative.split(paths.sep).join('/') : server
}

module.exports = { resolveServerPath, displayName }
