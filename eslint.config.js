'use strict'

// The lint npm test runs: neostandard on every file git does not ignore (.git/info/exclude too: workshop copies).

const fs = require('node:fs')
const path = require('node:path')
const { includeIgnoreFile } = require('@eslint/compat')
const neostandard = require('neostandard')

const gitIgnored = ['.gitignore', '.git/info/exclude']
  .map((file) => path.join(__dirname, file))
  .filter((file) => fs.existsSync(file))
  .flatMap((file) => includeIgnoreFile(file).ignores)

module.exports = [
  ...neostandard({
    ignores: ['coverage/**', 'vendor/**', '**/*.min.js', ...gitIgnored],
    noJsx: true
  }),
  {
    // fast/etag.js is slow/etag.js but for one line, so it carries a directive its variable does not need.
    files: ['fast/etag.js'],
    linterOptions: { reportUnusedDisableDirectives: 'off' }
  }
]
