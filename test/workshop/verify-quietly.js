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

// verify's output with each check's sent, seen and hint on one line: verify wraps them under their label, 12
// columns in, where a line would pass ~100 characters, and a pattern over one should not depend on where.
function unwrapped (output) {
  return output.replace(/\n {12}(?=\S)/g, ' ')
}

module.exports = { verifyQuietly, unwrapped }
