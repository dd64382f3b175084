'use strict'

// bench:compare's base tree (bench/measure/trees.js) in a throwaway git
// repository of a package.json, a lockfile and a node_modules holding one
// marker file: which base it picks and what it says of why; that removing
// the base's worktree unlinks its node_modules (a link to the head's)
// before git deletes anything, and never loses the head's, when git
// refuses too; and what a base's failed npm ci says: npm's exit code, or
// why it did not start; and that a Ctrl-C or a CI cancel still removes a
// worktree (checkOutBase's guard, for bench:compare, record and confirm). (That
// npm.cmd starts on Windows' node.exe is the Windows lane's:
// test/windows/base-install.js.)

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync, spawn } = require('node:child_process')
const { resolveBase, checkOutBase } = require('../../bench/measure/trees')
const TREES = require.resolve('../../bench/measure/trees')

const POSIX = process.platform !== 'win32'

function gitIn (dir, ...args) {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim()
}

const lockfile = (version) => JSON.stringify({ name: 'x', version, lockfileVersion: 3, requires: true, packages: { '': { name: 'x', version } } }, null, 2) + '\n'

// A repository on `main` with two commits, and the head's node_modules: a
// folder with a marker file, which nothing may delete.
function repository (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-base-tree-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  gitIn(dir, 'init', '-q', '-b', 'main')
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }) + '\n')
  fs.writeFileSync(path.join(dir, 'package-lock.json'), lockfile('1.0.0'))
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n')
  fs.mkdirSync(path.join(dir, 'node_modules', 'some-package'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'node_modules', 'some-package', 'marker'), 'the head\'s own\n')
  commit(dir, 'first')
  fs.writeFileSync(path.join(dir, 'server.js'), '\n')
  commit(dir, 'second')
  return dir
}

function commit (dir, message) {
  gitIn(dir, 'add', '-A')
  gitIn(dir, 'commit', '-q', '-m', message)
  return gitIn(dir, 'rev-parse', 'HEAD')
}

const marker = (dir) => path.join(dir, 'node_modules', 'some-package', 'marker')

// PATH for the rest of test `t` with `dir` first.
function pathFirst (t, dir) {
  const before = process.env.PATH
  process.env.PATH = `${dir}${path.delimiter}${before}`
  t.teardown(() => { process.env.PATH = before })
}

// A `git` first on PATH that notes, at each `git worktree remove`, whether
// the worktree's node_modules is still there, and refuses the removal
// when `refuse`; else it is the real git. Resolves to the notes so far.
function watchedGit (t, { refuse = false } = {}) {
  const real = process.env.PATH.split(path.delimiter).map((dir) => path.join(dir, 'git')).find((file) => fs.existsSync(file))
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-git-'))
  t.teardown(() => fs.rmSync(bin, { recursive: true, force: true }))
  const notes = path.join(bin, 'notes')
  fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh
if [ "$1" = worktree ] && [ "$2" = remove ]; then
  for last; do :; done
  if [ -e "$last/node_modules" ] || [ -L "$last/node_modules" ]; then echo "node_modules there" >> '${notes}'; else echo "node_modules gone" >> '${notes}'; fi
  ${refuse ? 'echo "fatal: refused by the test" >&2; exit 128' : ''}
fi
exec '${real}' "$@"
`, { mode: 0o755 })
  pathFirst(t, bin)
  return () => fs.existsSync(notes) ? fs.readFileSync(notes, 'utf8').trim().split('\n') : []
}

t.test('the base it picks, and why, said once', async (t) => {
  const dir = repository(t)
  const [second, first] = gitIn(dir, 'rev-list', 'HEAD').split('\n')
  t.same(resolveBase(undefined, dir), { ref: 'HEAD~1', commit: first, why: 'HEAD is main itself, so its parent' })
  t.same(resolveBase(first, dir), { ref: first, commit: first, why: 'as asked' })

  gitIn(dir, 'checkout', '-q', '-b', 'feature')
  fs.writeFileSync(path.join(dir, 'server.js'), '// a change\n')
  const third = commit(dir, 'third')
  t.same(resolveBase(undefined, dir), { ref: 'main', commit: second, why: 'the merge base of HEAD with main' })

  gitIn(dir, 'checkout', '-q', 'main')
  gitIn(dir, 'merge', '-q', '--ff-only', 'feature')
  gitIn(dir, 'checkout', '-q', '--detach', second)
  t.same(resolveBase(undefined, dir), { ref: 'HEAD~1', commit: first, why: 'HEAD is already in main, so its parent' }, `HEAD behind main (${third.slice(0, 10)})`)

  gitIn(dir, 'branch', '-q', '-m', 'main', 'trunk')
  t.same(resolveBase(undefined, dir), { ref: 'HEAD~1', commit: first, why: 'no default branch (origin\'s HEAD, main or master), so HEAD\'s parent' })
})

t.test('the worktree removed, its node_modules link first, the head\'s node_modules kept', { skip: !POSIX && 'the watching git is a shell script' }, async (t) => {
  const dir = repository(t)
  const notes = watchedGit(t)
  const checkout = checkOutBase(gitIn(dir, 'rev-parse', 'HEAD~1'), { root: dir })
  t.equal(checkout.install, 'the same lockfile as the head: its node_modules reused')
  t.ok(fs.lstatSync(path.join(checkout.dir, 'node_modules')).isSymbolicLink(), 'the base\'s node_modules is a link')
  t.ok(fs.existsSync(marker(checkout.dir)), 'to the head\'s')

  checkout.remove()
  t.same(notes(), ['node_modules gone'], 'the link was gone when git removed the worktree')
  t.notOk(fs.existsSync(checkout.dir), 'the worktree is gone')
  t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, 'and git knows it')
  t.equal(fs.readFileSync(marker(dir), 'utf8'), 'the head\'s own\n', 'the head\'s node_modules is whole')
  t.doesNotThrow(() => checkout.remove(), 'a second removal (Ctrl-C, then the finally) does nothing')
})

t.test('git refusing the removal: the folder removed without it, nothing thrown, nothing lost', { skip: !POSIX && 'the refusing git is a shell script' }, async (t) => {
  const dir = repository(t)
  const notes = watchedGit(t, { refuse: true })
  const checkout = checkOutBase(gitIn(dir, 'rev-parse', 'HEAD~1'), { root: dir })
  t.doesNotThrow(() => checkout.remove())
  t.same(notes(), ['node_modules gone'])
  t.notOk(fs.existsSync(checkout.dir), 'the worktree\'s folder is gone')
  t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, 'and pruned from git\'s list')
  t.equal(fs.readFileSync(marker(dir), 'utf8'), 'the head\'s own\n', 'the head\'s node_modules is whole')
})

// The second commit's lockfile made different from the head's: the base
// needs npm ci.
function baseWithItsOwnLockfile (t) {
  const dir = repository(t)
  fs.writeFileSync(path.join(dir, 'package-lock.json'), lockfile('2.0.0'))
  commit(dir, 'the head\'s lockfile')
  return { dir, base: gitIn(dir, 'rev-parse', 'HEAD~1') }
}

t.test('a base whose npm ci fails: npm\'s exit code and its words', { skip: !POSIX && 'the fake npm is a shell script' }, async (t) => {
  const { dir, base } = baseWithItsOwnLockfile(t)
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-npm-'))
  t.teardown(() => fs.rmSync(bin, { recursive: true, force: true }))
  fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "fake npm received: $*" >&2\nexit 3\n', { mode: 0o755 })
  pathFirst(t, bin)
  const lines = []
  t.throws(() => checkOutBase(base, { root: dir, log: (line) => lines.push(line) }),
    { message: 'the base did not install (npm ci exited 3):\nfake npm received: ci --no-audit --no-fund --loglevel=error' })
  t.match(lines, [/^the base's lockfile differs from the head's: npm ci into /])
  t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, 'no worktree left behind')
  t.same(fs.readdirSync(path.join(dir, '.cache', 'compare')), [], 'nor a half install')
})

t.test('a base whose npm does not start: why, not "exited null"', { skip: !POSIX && 'PATH with git and no npm is made of links' }, async (t) => {
  const { dir, base } = baseWithItsOwnLockfile(t)
  const real = process.env.PATH.split(path.delimiter).map((d) => path.join(d, 'git')).find((file) => fs.existsSync(file))
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compare-no-npm-'))
  t.teardown(() => fs.rmSync(bin, { recursive: true, force: true }))
  fs.symlinkSync(real, path.join(bin, 'git'))
  const before = process.env.PATH
  process.env.PATH = bin
  t.teardown(() => { process.env.PATH = before })
  t.throws(() => checkOutBase(base, { root: dir }), { message: 'the base did not install (npm ci did not start: spawnSync npm ENOENT)' })
  process.env.PATH = before
  t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, 'no worktree left behind')
})

t.test('a Ctrl-C or a cancel removes the worktree, and still stops the process', { skip: !POSIX && 'signals are POSIX' }, async (t) => {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    const dir = repository(t)
    // A command that checked a base out and is still busy with it.
    const script = `const { checkOutBase } = require(${JSON.stringify(TREES)})
const checkout = checkOutBase('HEAD~1', { root: process.cwd() })
process.stdout.write(checkout.dir + '\\n')
setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['-e', script], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] })
    const worktree = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk).trim())))
    t.ok(fs.existsSync(path.join(worktree, 'server.js')) === false && fs.existsSync(worktree), `${signal}: the base checked out`)
    t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 2)
    const ended = new Promise((resolve) => child.once('exit', (code, by) => resolve(by)))
    child.kill(signal)
    t.equal(await ended, signal, `${signal}: the process stopped by it, as without the guard`)
    t.notOk(fs.existsSync(worktree), `${signal}: the worktree's folder gone`)
    t.equal(gitIn(dir, 'worktree', 'list').split('\n').length, 1, `${signal}: git lists no worktree left`)
    t.ok(fs.existsSync(marker(dir)), `${signal}: the head's node_modules kept`)
  }
})
