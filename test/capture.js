'use strict'

require('./untapped-children')

/**
 * A writable stand-in for stdout or stderr: write(chunk) collects, text()
 * returns all written so far.
 */
function capture () {
  let text = ''
  return { write (chunk) { text += chunk }, text: () => text }
}

module.exports = { capture }
