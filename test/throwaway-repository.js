'use strict'

// A throwaway git repository holding some of this project's files, for the
// tests that run a command on a tree of its own (bench:compare checks a
// base out of one): node_modules linked, not installed; removed in teardown.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { ROOT } = require('../tooling/repo')

// git in `dir` as a test's own committer, whatever the machine's config.
function gitIn (dir, ...args) {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim()
}

// A new folder holding `entries` (files and folders of the project), not
// yet a git repository.
function throwawayRepository (t, entries, prefix = 'throwaway-repo') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  for (const entry of entries) fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true })
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'junction')
  // .gitignore's "node_modules/" matches a folder, not this link.
  fs.appendFileSync(path.join(dir, '.gitignore'), 'node_modules\n')
  return dir
}

// Everything in `dir` committed; the new commit's id.
function commitAll (dir, message) {
  gitIn(dir, 'add', '-A')
  gitIn(dir, 'commit', '-q', '-m', message)
  return gitIn(dir, 'rev-parse', 'HEAD')
}

module.exports = { gitIn, throwawayRepository, commitAll }
