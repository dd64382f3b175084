'use strict'

// What the instruction meter needs on the machine, checked before anything runs: Linux, valgrind and its vgdb, a kernel that
// lets vgdb wake a process, and libfaketime for the counted server's frozen clock (instruction-count.js, FROZEN_CLOCK).

const fs = require('node:fs')
const { execFileSync } = require('node:child_process')
const { UsageError } = require('../../tooling/command')
const { readTextOrNull } = require('../../tooling/text-file')

// Where distributions put libfaketime (Debian's and Ubuntu's faketime package: /usr/lib/<multiarch>/faketime/).
const LIBFAKETIME_PATHS = [
  `/usr/lib/${{ x64: 'x86_64', arm64: 'aarch64' }[process.arch] ?? process.arch}-linux-gnu/faketime/libfaketime.so.1`,
  '/usr/lib64/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
  '/usr/local/lib/faketime/libfaketime.so.1'
]

// A usage error to the commands: exit 2, saying what is missing.
class MeterUnavailable extends UsageError {}

function checkMeter ({ platform = process.platform, ptraceScopeFile = '/proc/sys/kernel/yama/ptrace_scope', libfaketimePaths = LIBFAKETIME_PATHS } = {}) {
  if (platform !== 'linux') {
    throw new MeterUnavailable(`the instruction meter needs valgrind on Linux; this is ${platform}: use the CPU meter (the default) here`)
  }
  let version
  try {
    version = execFileSync('valgrind', ['--version'], { encoding: 'utf8' }).trim().replace(/^valgrind-/, '')
    execFileSync('vgdb', ['--help'], { stdio: 'ignore' })
  } catch {
    throw new MeterUnavailable('the instruction meter needs valgrind and its vgdb: install valgrind (apt-get install valgrind)')
  }
  const scope = readTextOrNull(ptraceScopeFile)
  if (scope !== null && scope.trim() !== '0') {
    throw new MeterUnavailable(`vgdb cannot wake a server waiting for requests while kernel.yama.ptrace_scope is ${scope.trim()}: ` +
      'run "sudo sysctl -w kernel.yama.ptrace_scope=0" first')
  }
  return { valgrind: version, libfaketime: findLibfaketime(libfaketimePaths) }
}

function findLibfaketime (paths = LIBFAKETIME_PATHS) {
  const found = paths.find((file) => fs.existsSync(file))
  if (found === undefined) {
    throw new MeterUnavailable('the instruction meter runs the server on a clock that stands still, with libfaketime: ' +
      `install it (apt-get install faketime); looked for ${paths.join(', ')}`)
  }
  return found
}

module.exports = { checkMeter, findLibfaketime, MeterUnavailable, LIBFAKETIME_PATHS }
