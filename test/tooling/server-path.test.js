'use strict'

// How the tools name the server they are pointed at (tooling/server-path.js):
// relative to the repository where it is inside, even through a symbolic
// link (a clone reached through one, as macOS's /var); without the
// index.js of a folder's server, / or \ before it; Windows' paths through
// path.win32, so they are held here on Linux.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')
const { resolveServerPath, displayName } = require('../../tooling/server-path')
const { linkFolder, linksMissing } = require('../links')

const asGiven = (file) => file

t.test('a variant, a story, a folder and its index.js, inside the repository', async (t) => {
  t.same(resolveServerPath('slow'), { entry: path.join(ROOT, 'slow'), name: 'slow' })
  t.same(resolveServerPath('stories/crypto/slow.js'), { entry: path.join(ROOT, 'stories', 'crypto', 'slow.js'), name: 'stories/crypto/slow.js' })
  t.equal(resolveServerPath('./fixed/index.js', { cwd: ROOT }).name, 'fixed')
  t.equal(resolveServerPath(path.join('..', 'slow'), { cwd: path.join(ROOT, 'fast') }).name, 'slow')
})

// A command resolves its argument as it parses it and hands the answer on:
// the tool takes it as it is, the disk not read again.
t.test('an answer of resolveServerPath is returned as it is', async (t) => {
  const resolved = { entry: path.join(os.tmpdir(), 'no-such-server-here'), name: 'mine' }
  t.equal(resolveServerPath(resolved), resolved)
  t.throws(() => resolveServerPath({ entry: 'mine' }), /name a server/, 'half an answer is no answer')
})

t.test('the repository reached through a symbolic link', { skip: linksMissing }, async (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'server-path-test-'))
  t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
  const link = path.join(scratch, 'clone')
  linkFolder(ROOT, link)
  t.equal(resolveServerPath(path.join(link, 'slow')).name, 'slow', 'named as inside it')
  t.equal(resolveServerPath('slow/index.js', { cwd: link }).name, 'slow', 'from a shell in the link, too')
})

t.test('outside the repository: the path as given, without index.js', async (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'server-path-test-'))
  t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
  fs.mkdirSync(path.join(scratch, 'mine'))
  fs.writeFileSync(path.join(scratch, 'mine', 'index.js'), '')
  t.equal(resolveServerPath('mine/index.js', { cwd: scratch }).name, path.join(scratch, 'mine'))
  t.equal(resolveServerPath('mine', { cwd: scratch }).name, path.join(scratch, 'mine'))
})

t.test("Windows' paths", async (t) => {
  const name = (entry) => displayName(entry, { dir: 'C:\\work\\repo', paths: path.win32, realpath: asGiven })
  t.equal(name('C:\\work\\repo\\slow\\index.js'), 'slow', 'inside: / between parts, no index.js')
  t.equal(name('C:\\work\\repo\\stories\\crypto\\slow.js'), 'stories/crypto/slow.js')
  t.equal(name('C:\\Users\\me\\mine\\index.js'), 'C:\\Users\\me\\mine', 'outside: as given, without \\index.js')
  t.equal(name('D:\\work\\repo\\mine\\index.js'), 'D:\\work\\repo\\mine', 'another drive is outside')
})
