'use strict'

// Whether the Node running a server is one package.json's `engines` names. If not, the server says so on
// stderr and starts anyway: a workshop is better served by a clear line than by a refusal.

const fs = require('node:fs')
const path = require('node:path')

// package.json and .nvmrc are read as data (core/ imports nothing outside core/); a copy without them says nothing.
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

// Whether `version` satisfies `range`, `||`-joined `^X.Y.Z` or `>=X.Y.Z`; null for any other form.
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

function unsupportedNodeLine (name, version = process.versions.node, range = enginesNode(), line = nvmrcLine()) {
  if (range === null || satisfies(version, range) !== false) return null
  return `${name}: Node ${version} is not one this project supports (package.json's engines: ${range}); ` +
    `starting anyway. Use Node ${line ?? 'of a line engines names'}${line ? ', as .nvmrc says' : ''} (README, "Start here").`
}

module.exports = { satisfies, unsupportedNodeLine }
