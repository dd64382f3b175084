'use strict'

// Whether the Node running a server is one package.json's `engines` names.
// A participant who opens a second terminal without the PATH line starts
// `node fixed` on the machine's own Node (20 on many): restify 12 wants 22
// or later, and nothing said so. The server now says it in its first line,
// on stderr, and starts anyway: it may well serve, and a workshop is better
// served by a clear line than by a refusal.

const fs = require('node:fs')
const path = require('node:path')

// The manifest read as data: core/ imports no module from outside core/
// (layout.test.js), and package.json is where `engines` is kept. A copy of
// core/ without it (trace-leak's folder) says nothing.
function enginesNode () {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).engines?.node ?? null
  } catch (err) {
    if (err.code === 'ENOENT') return null
    throw err
  }
}

/**
 * Whether `version` ('24.21.0') satisfies `range`, a `||` list of `^X.Y.Z`
 * or `>=X.Y.Z` (the forms `engines` uses here). null for a range in
 * another form: then nothing is said rather than something wrong.
 */
function satisfies (version, range) {
  const [major, minor, patch] = version.split('.').map(Number)
  const alternatives = range.split('||').map((part) => /^\s*(\^|>=)\s*(\d+)\.(\d+)\.(\d+)\s*$/.exec(part))
  if (alternatives.some((match) => match === null)) return null
  return alternatives.some(([, operator, ...wanted]) => {
    const [wantMajor, wantMinor, wantPatch] = wanted.map(Number)
    const atLeast = major !== wantMajor ? major > wantMajor : minor !== wantMinor ? minor > wantMinor : patch >= wantPatch
    return operator === '^' ? major === wantMajor && atLeast : atLeast
  })
}

/**
 * The line a server named `name` prints when `version` is not one
 * `engines.node` names, or null when it is.
 */
function unsupportedNodeLine (name, version = process.versions.node, range = enginesNode()) {
  if (range === null || satisfies(version, range) !== false) return null
  return `${name}: Node ${version} is not one this project supports (package.json's engines: ${range}); ` +
    'starting anyway. Use Node 24, as .nvmrc says (README, "Start here").'
}

module.exports = { satisfies, unsupportedNodeLine }
