'use strict'

// Whether the Node running a server is one package.json's `engines` names.
// A participant who opens a second terminal without the PATH line starts
// `node fixed` on the machine's own Node (20 on many): restify 12 wants 22
// or later, and nothing said so. The server now says it in its first line,
// on stderr, and starts anyway: it may well serve, and a workshop is better
// served by a clear line than by a refusal.

const fs = require('node:fs')
const path = require('node:path')

// The manifest and .nvmrc read as data: core/ imports no module from outside
// core/ (layout.test.js), package.json is where `engines` is kept and .nvmrc
// names the line to use. A copy of core/ without them (trace-leak's folder)
// says nothing.
function readRootFile (name) {
  try {
    return fs.readFileSync(path.join(__dirname, '..', name), 'utf8')
  } catch (err) {
    if (err.code === 'ENOENT') return null
    throw err
  }
}

function enginesNode () {
  const manifest = readRootFile('package.json')
  return manifest === null ? null : JSON.parse(manifest).engines?.node ?? null
}

function nvmrcLine () {
  return readRootFile('.nvmrc')?.trim() || null
}

/**
 * Whether `version` ('26.12.1') satisfies `range`, a `||` list of `^X.Y.Z`
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
function unsupportedNodeLine (name, version = process.versions.node, range = enginesNode(), line = nvmrcLine()) {
  if (range === null || satisfies(version, range) !== false) return null
  return `${name}: Node ${version} is not one this project supports (package.json's engines: ${range}); ` +
    `starting anyway. Use Node ${line ?? 'of a line engines names'}${line ? ', as .nvmrc says' : ''} (README, "Start here").`
}

module.exports = { satisfies, unsupportedNodeLine }
