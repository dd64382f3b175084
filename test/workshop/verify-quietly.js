'use strict'

require('../untapped-children')
const { verify } = require('../../workshop/verify')

/**
 * verify on `entry` without the speed comparison, its output collected.
 * Resolves to { code, passed: [contract, level 1, level 2, level 3], output }.
 */
async function verifyQuietly (entry, options = {}) {
  let output = ''
  const { code, passed } = await verify(entry, { speed: false, print: (text) => { output += text + '\n' }, ...options })
  return { code, passed, output }
}

module.exports = { verifyQuietly }
