'use strict'

// The base tree bench:compare measures: a commit checked out into a
// temporary git worktree, with its dependencies installed from its own
// lockfile. The head is the working tree as it is.

const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnNpm } = require('../../tooling/npm')
const { ROOT, shownPath } = require('../../tooling/repo')
const { UsageError } = require('../../tooling/command')
const { git } = require('../../tooling/git')
const { readTextOrNull } = require('../../tooling/text-file')

// Base installs, one folder per lockfile hash, kept for the next comparison.
const INSTALL_CACHE = path.join('.cache', 'compare')

// The base commit: `ref` when given, else the merge base of HEAD with the
// default branch, else HEAD~1. Returns { ref, commit, why }.
function resolveBase (ref, root = ROOT) {
  if (ref !== undefined) {
    const commit = commitOf(ref, root)
    if (commit === null) throw new UsageError(`--base ${ref}: no such commit in ${root}`)
    return { ref, commit, why: 'as asked' }
  }
  const head = commitOf('HEAD', root)
  let onBranch = null
  for (const branch of [symbolicOriginHead(root), 'origin/main', 'origin/master', 'main', 'master']) {
    if (!branch || commitOf(branch, root) === null) continue
    let mergeBase
    try {
      mergeBase = git(['merge-base', 'HEAD', branch], { cwd: root })
    } catch {
      continue
    }
    if (mergeBase !== head) return { ref: branch, commit: mergeBase, why: `the merge base of HEAD with ${branch}` }
    onBranch = branch
    break
  }
  const parent = commitOf('HEAD~1', root)
  if (parent === null) throw new UsageError('HEAD has no parent and no default branch to start from: name a base with --base')
  const why = onBranch === null
    ? 'no default branch (origin\'s HEAD, main or master), so HEAD\'s parent'
    : `HEAD is ${commitOf(onBranch, root) === head ? `${onBranch} itself` : `already in ${onBranch}`}, so its parent`
  return { ref: 'HEAD~1', commit: parent, why }
}

function commitOf (ref, root) {
  try {
    return git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd: root })
  } catch {
    return null
  }
}

function symbolicOriginHead (root) {
  try {
    return git(['symbolic-ref', '--short', 'refs/remotes/origin/HEAD'], { cwd: root })
  } catch {
    return null
  }
}

// Check `commit` out into a temporary worktree with its dependencies.
// Returns { dir, install, remove() }. Until remove(), a Ctrl-C, a CI cancel
// (SIGTERM) or a crash ('exit') removes the worktree too; a failed install
// removes it at once.
function checkOutBase (commit, { root = ROOT, log = () => {} } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-base-'))
  git(['worktree', 'add', '--detach', '--quiet', dir, commit], { cwd: root })
  const onSignal = (signal) => { remove(); process.kill(process.pid, signal) }
  const remove = () => {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    process.off('exit', remove)
    removeWorktree(dir, root, log)
  }
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  process.once('exit', remove)
  try {
    const install = installDependencies(dir, root, log)
    return { dir, install, remove }
  } catch (err) {
    remove()
    throw err
  }
}

// Never throws (a Ctrl-C handler calls it). The link goes first: on Windows,
// `git worktree remove` follows a junction and deletes the head's node_modules.
function removeWorktree (dir, root, log) {
  const link = path.join(dir, 'node_modules')
  try {
    if (fs.lstatSync(link).isSymbolicLink()) fs.unlinkSync(link)
  } catch (err) {
    if (err.code !== 'ENOENT') {
      log(`the base's worktree ${dir} is left in place: its node_modules link could not be removed (${err.message}); ` +
        'remove that link, then run "git worktree prune"')
      return
    }
  }
  try {
    git(['worktree', 'remove', '--force', dir], { cwd: root })
  } catch {
    try { fs.rmSync(dir, { recursive: true, force: true }) } catch {}
    try { git(['worktree', 'prune'], { cwd: root }) } catch {}
  }
}

function installDependencies (dir, root, log) {
  fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true })
  const lockfile = (tree) => readTextOrNull(path.join(tree, 'package-lock.json'))
  const baseLock = lockfile(dir)
  if (baseLock === null) throw new UsageError('the base has no package-lock.json: it cannot be installed as CI installs it (npm ci)')
  if (baseLock === lockfile(root)) {
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'junction')
    return 'the same lockfile as the head: its node_modules reused'
  }
  const hash = crypto.createHash('sha256').update(baseLock).digest('hex').slice(0, 16)
  const cached = path.join(root, INSTALL_CACHE, hash)
  let install = `its own lockfile: the install in ${shownPath(root, cached)} reused`
  if (!fs.existsSync(path.join(cached, 'node_modules', '.package-lock.json'))) {
    log(`the base's lockfile differs from the head's: npm ci into ${shownPath(root, cached)}`)
    fs.rmSync(cached, { recursive: true, force: true })
    fs.mkdirSync(cached, { recursive: true })
    for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(dir, file), path.join(cached, file))
    const started = Date.now()
    const npm = runNpmCi(cached)
    if (npm.status !== 0) {
      fs.rmSync(cached, { recursive: true, force: true })
      const said = (npm.stderr || '').trim().split('\n').slice(-8).join('\n')
      throw new UsageError(`the base did not install (${npmOutcome(npm)})${said ? `:\n${said}` : ''}`)
    }
    install = `its own lockfile: npm ci, ${((Date.now() - started) / 1000).toFixed(0)} s, kept in ${shownPath(root, cached)}`
  }
  fs.symlinkSync(path.join(cached, 'node_modules'), path.join(dir, 'node_modules'), 'junction')
  return install
}

function runNpmCi (cwd) {
  return spawnNpm(['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' })
}

function npmOutcome ({ status, signal, error }) {
  if (error) return `npm ci did not start: ${error.message}`
  if (status === null) return `npm ci was stopped by ${signal}`
  return `npm ci exited ${status}`
}

// installDependencies is exported for test/windows/base-install.js, which has no git.
module.exports = { resolveBase, commitOf, checkOutBase, installDependencies }
