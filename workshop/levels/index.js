'use strict'

// verify's levels, in the order a participant climbs them, a file each:
// each says what it checks (its title, its lines in verify's help, the
// README heading its hints send to) and checks it, resolving to { checks,
// leaking? } where each check is { name, pass (true, false, or null when it
// could not be checked), sent, seen, hint }. verify runs them in this order
// and builds its help from them: a new level is a file and a row here.

const LEVELS = [
  require('./contract'),
  require('./leak'),
  require('./etag'),
  require('./conditional')
]

// Each level's heading in the README, by its name: test/docs/docs.test.js holds
// the README to them.
const README = Object.fromEntries(LEVELS.map((level, index) => [levelName(index), level.readme]))

// What verify's help and summary line call a level: contract, level 1, ...
function levelName (index) {
  return index === 0 ? 'contract' : `level ${index}`
}

// verify's help for the levels: each level's name, then its lines.
function describeLevels () {
  return LEVELS.map(({ usage }, index) => `  ${levelName(index).padEnd(8)}  ${usage.join('\n' + ' '.repeat(12))}`).join('\n')
}

module.exports = { LEVELS, README, levelName, describeLevels }
