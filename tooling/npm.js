'use strict'

// npm as a child process, the one way every command and test here starts
// it: spawnSync's result for `npm ARGS`. On Windows npm is a batch file
// (npm.cmd), which Node starts only through a shell since CVE-2024-27980
// (without one, EINVAL): cmd.exe runs the command line, as Node's
// documentation, cross-spawn and npm's own @npmcli/promise-spawn do. A word
// with a space or a character cmd reads itself is put in double quotes (a
// folder under "Program Files" stays one word); the line is given as one
// string, not an array, since Node 24 warns (DEP0190) about arguments it
// would only concatenate for a shell.

const { spawnSync } = require('node:child_process')

const CMD_SPECIAL = /[\s"&|<>^%()]/

function spawnNpm (args, options = {}, platform = process.platform) {
  if (platform !== 'win32') return spawnSync('npm', args, options)
  const line = ['npm', ...args.map((arg) => CMD_SPECIAL.test(arg) ? `"${arg}"` : arg)].join(' ')
  return spawnSync(line, { ...options, shell: true })
}

module.exports = { spawnNpm }
