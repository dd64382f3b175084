'use strict'

// Git as the tools ask it: the commit a run measured, and the trees a run measures (bench/measure/trees.js).

const { execFileSync } = require('node:child_process')
const { ROOT } = require('./repo')
const { UsageError } = require('./command')

// `input` is git's stdin; `allowFailure`: null when git exits non-zero, not a throw;
// `encoding: 'buffer'`: its output as it is (git cat-file --batch).
function git (args, { cwd = ROOT, input, allowFailure = false, encoding = 'utf8' } = {}) {
  let out
  try {
    out = execFileSync('git', args, { cwd, encoding: encoding === 'buffer' ? null : encoding, input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 256 * 2 ** 20 })
  } catch (err) {
    if (allowFailure && typeof err.status === 'number') return null
    throw err
  }
  return encoding === 'buffer' ? out : out.trim()
}

// The head's commit, whether tracked files differ from it, and the root; a UsageError outside a checkout.
function describeHead (root = ROOT) {
  let top
  try {
    top = git(['rev-parse', '--show-toplevel'], { cwd: root })
  } catch {
    throw new UsageError(`${root} is not in a git checkout: bench:compare builds the base from git history`)
  }
  let commit = null
  try {
    commit = git(['rev-parse', 'HEAD'], { cwd: root })
  } catch {
    throw new UsageError(`${top} has no commit yet: there is no base to compare with`)
  }
  const dirty = git(['status', '--porcelain', '--untracked-files=no'], { cwd: root }) !== ''
  return { root: top, commit, dirty }
}

module.exports = { git, describeHead }
