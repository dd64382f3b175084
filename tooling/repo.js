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

module.exports = { ROOT, VARIANTS, STORY_SERVERS }
