'use strict'

// A text file that may not be there (a lockfile, a /proc entry, a kernel setting): its content, or null.

const fs = require('node:fs')

function readTextOrNull (file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

module.exports = { readTextOrNull }
