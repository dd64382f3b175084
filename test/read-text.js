'use strict'

require('./untapped-children')
const fs = require('node:fs')

/**
 * A text file of the checkout with LF line endings, whatever the checkout
 * has: .gitattributes asks for LF, but an editor or a copy may still bring
 * CRLF, and the tests read lines.
 */
function readText (file) {
  return fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n')
}

module.exports = { readText }
