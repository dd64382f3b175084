'use strict'

// The lint npm test runs before tap: ESLint 9 with neostandard, the
// maintained successor of `standard` (whose ESLint 8 is end-of-life), on
// ESLint's flat config, as fastify and undici lint: standard's rules, the
// formatting ones through @stylistic. The same rules on every file.

const fs = require('node:fs')
const path = require('node:path')
const { includeIgnoreFile } = require('@eslint/compat')
const neostandard = require('neostandard')

// What standard passed over: its defaults (node_modules/, which ESLint skips
// by itself, coverage/, vendor/, *.min.js) and what git ignores through the
// root's .gitignore and the checkout's .git/info/exclude, where
// `npm run workshop -- new` names a participant's copy (workshop/index.js).
// neostandard's resolveIgnoresFromGitignore() reads only the .gitignore.
const gitIgnored = ['.gitignore', '.git/info/exclude']
  .map((file) => path.join(__dirname, file))
  .filter((file) => fs.existsSync(file))
  .flatMap((file) => includeIgnoreFile(file).ignores)

module.exports = [
  ...neostandard({
    ignores: ['coverage/**', 'vendor/**', '**/*.min.js', ...gitIgnored],
    // No JSX here: its rules would only weigh. TypeScript is off (the default).
    noJsx: true
  }),
  {
    // fast/ is slow/ but for the guard line, comments included
    // (test/variants/slow-fast-diff.test.js): the directive slow/etag.js
    // needs for its never-read variable is in fast/etag.js too, where the
    // variable is read, so ESLint 9 would warn of it as unused there.
    files: ['fast/etag.js'],
    linterOptions: { reportUnusedDisableDirectives: 'off' }
  }
]
