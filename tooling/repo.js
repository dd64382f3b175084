'use strict'

// Where the tools find what they run: the repository's root, the variants
// of the case study, each a folder `node <variant>` starts, and the servers
// of the four stories beside it (stories/, each `node <file>`).

const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const VARIANTS = ['slow', 'fast', 'fixed']
const STORY_SERVERS = ['logging', 'crypto', 'backend']
  .flatMap((story) => [`stories/${story}/slow.js`, `stories/${story}/fixed.js`])
  .concat('stories/cluster')

/**
 * The path from `from` to `to` as the tools print it, and the README shows
 * it: relative, with / between its parts on every system (slow/etag.js:25,
 * not slow\\etag.js:25 on Windows).
 */
function shownPath (from, to) {
  return path.relative(from, to).split(path.sep).join('/')
}

module.exports = { ROOT, VARIANTS, STORY_SERVERS, shownPath }
