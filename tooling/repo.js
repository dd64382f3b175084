'use strict'

// Where the tools find what they run: the repository's root, and the
// variants of the case study, each a folder `node <variant>` starts.

const path = require('node:path')

const ROOT = path.join(__dirname, '..')
const VARIANTS = ['slow', 'fast', 'fixed']

module.exports = { ROOT, VARIANTS }
