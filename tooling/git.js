'use strict'

// Git as the tools ask it: the commit a run measured, and the trees a run measures (bench/measure/trees.js).

const { execFileSync } = require('node:child_process')
const { ROOT } = require('./repo')
const { UsageError } = require('./command')

function git (args, { cwd = ROOT } = {}) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
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
