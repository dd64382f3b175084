'use strict'

// Git as the tools ask it: the commit a run measured, and the base of a
// comparison (bench/compare/base-tree.js).

const { execFileSync } = require('node:child_process')
const { ROOT } = require('./repo')
const { UsageError } = require('./command')

/**
 * `git ARGS` in `cwd`, its output trimmed. Throws where git fails.
 */
function git (args, { cwd = ROOT } = {}) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
}

/**
 * The head: its commit, whether the working tree differs from it (tracked
 * files only: untracked ones are not part of a change until added), and
 * the repository's root. A UsageError where `root` is not in a git
 * checkout.
 */
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
