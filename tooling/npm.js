'use strict'

// spawnSync's result for `npm ARGS`; on Windows through cmd.exe (npm.cmd needs a shell), as one quoted line.

const { spawnSync } = require('node:child_process')

const CMD_SPECIAL = /[\s"&|<>^%()]/

function spawnNpm (args, options = {}, platform = process.platform) {
  if (platform !== 'win32') return spawnSync('npm', args, options)
  const line = ['npm', ...args.map((arg) => CMD_SPECIAL.test(arg) ? `"${arg}"` : arg)].join(' ')
  return spawnSync(line, { ...options, shell: true })
}

module.exports = { spawnNpm }
