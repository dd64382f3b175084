'use strict'

// verify's levels in climbing order, a file each with title, usage, readme, held (a sentence for when it holds), either
// failing (a sentence for when it fails first) or asks (lines that explain it when it is next), and check(server),
// which resolves to { checks: [{ name, pass (true, false, null: not checkable), sent, seen, hint }], leaking? }.

const LEVELS = [
  require('./contract'),
  require('./leak'),
  require('./etag'),
  require('./conditional')
]

const README = Object.fromEntries(LEVELS.map((level, index) => [levelName(index), level.readme]))

function levelName (index) {
  return index === 0 ? 'contract' : `level ${index}`
}

function describeLevels () {
  return LEVELS.map(({ usage }, index) => `  ${levelName(index).padEnd(8)}  ${usage.join('\n' + ' '.repeat(12))}`).join('\n')
}

module.exports = { LEVELS, README, levelName, describeLevels }
