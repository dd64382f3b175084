'use strict'

// The Windows lane's check of bench:compare's base install, under Windows'
// own node.exe (.ci/windows-lane, through ../shared/tools/windows-node):
//   windows-node node test/windows/base-install.js
// A base whose lockfile differs from the head's is installed with npm ci
// (bench/measure/trees.js). npm is a batch file there, npm.cmd, which
// Node refuses to start without a shell since CVE-2024-27980 (EINVAL,
// status null). Wine has no git.exe, so the worktree is a plain folder and
// the install is called directly, with an npm.cmd first on PATH that says
// what it received and exits 3: the install must fail saying "npm ci exited
// 3" and npm's own words. One line; exit 0 when it does, 1 otherwise.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { installDependencies } = require('../../bench/measure/trees')

const EXIT = 3

function main () {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'base-install-'))
  try {
    const bin = path.join(temp, 'bin')
    const root = path.join(temp, 'head')
    const base = path.join(temp, 'base')
    for (const dir of [bin, root, base]) fs.mkdirSync(dir)
    fs.writeFileSync(path.join(bin, 'npm.cmd'), `@echo off\r\necho fake npm received: %* 1>&2\r\nexit /b ${EXIT}\r\n`)
    const lockfile = (version) => JSON.stringify({ name: 'x', version, lockfileVersion: 3, requires: true, packages: { '': { name: 'x', version } } })
    fs.writeFileSync(path.join(base, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }))
    fs.writeFileSync(path.join(base, 'package-lock.json'), lockfile('1.0.0'))
    fs.writeFileSync(path.join(root, 'package-lock.json'), lockfile('2.0.0'))
    // process.env is case-blind on Windows: this is its Path.
    process.env.PATH = `${bin}${path.delimiter}${process.env.PATH}`
    let message = 'no error: the install succeeded with an npm that exits 3'
    try {
      installDependencies(base, root, () => {})
    } catch (err) {
      message = err.message
    }
    const ok = message.startsWith(`the base did not install (npm ci exited ${EXIT}):\n`) &&
      message.includes('fake npm received: ci --no-audit --no-fund --loglevel=error')
    console.log(`${ok ? 'ok' : 'FAILED'}: bench:compare's base install on ${process.platform}, Node ${process.version}: ${message.split('\n').join(' | ')}`)
    return ok ? 0 : 1
  } finally {
    fs.rmSync(temp, { recursive: true, force: true })
  }
}

process.exitCode = main()
