'use strict'

// tooling/repo.js's pathInside: the one test of "is this path inside the
// repository" that every tool uses. Windows' paths through path.win32, so
// they are held here on Linux too: another drive is outside, where
// path.relative answers with an absolute path; and linked paths, as on
// macOS (/var is a link to /private/var): the real paths are compared.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { ROOT, pathInside, realPath } = require('../../tooling/repo')
const { linkFolder, linksMissing } = require('../links')

const asGiven = (file) => file

t.test('POSIX paths: under the folder, the folder itself, and outside it', async (t) => {
  const inside = (file) => pathInside(file, { dir: '/repo', paths: path.posix, realpath: asGiven })
  t.equal(inside('/repo/slow/index.js'), 'slow/index.js')
  t.equal(inside('/repo'), '', 'the folder itself is inside, as ""')
  t.equal(inside('/repo/..mine/x.js'), '..mine/x.js', 'a name that starts with .. is inside')
  t.equal(inside('/repo2/x.js'), null, 'a sibling whose name starts alike is outside')
  t.equal(inside('/'), null, 'a parent is outside')
  t.equal(inside('/elsewhere/slow'), null)
  t.equal(inside('slow'), null, 'a relative path is no place')
  t.equal(inside(undefined), null, 'nor is no path (a frame without a file)')
})

t.test("Windows' paths: drives, letter case, shares", async (t) => {
  const inside = (file) => pathInside(file, { dir: 'C:\\work\\repo', paths: path.win32, realpath: asGiven })
  t.equal(inside('C:\\work\\repo\\slow\\etag.js'), 'slow\\etag.js')
  t.equal(inside('c:\\WORK\\repo\\slow'), 'slow', 'letter case does not matter there')
  t.equal(inside('D:\\work\\repo\\slow'), null, 'the same folders on another drive are outside')
  t.equal(inside('\\\\server\\share\\repo\\slow'), null, 'and on a network share')
  t.equal(inside('C:\\work\\repo2\\slow'), null)
  t.equal(inside('C:\\work\\repo\\..mine\\x.js'), '..mine\\x.js')
  t.equal(inside('C:\\work'), null)
})

t.test('through symbolic links the real paths are compared', { skip: linksMissing }, async (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'repo-test-'))
  t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
  const real = path.join(scratch, 'real')
  fs.mkdirSync(path.join(real, 'slow'), { recursive: true })
  fs.mkdirSync(path.join(scratch, 'outside'))
  const link = path.join(scratch, 'link')
  linkFolder(real, link)
  linkFolder(path.join(scratch, 'outside'), path.join(real, 'mine'))

  t.equal(pathInside(path.join(link, 'slow'), { dir: real }), 'slow', 'a path through the link is inside the real folder')
  t.equal(pathInside(path.join(real, 'slow'), { dir: link }), 'slow', 'and a real path inside the folder given through the link')
  t.equal(pathInside(path.join(link, 'not', 'made', 'yet.json'), { dir: real }), path.join('not', 'made', 'yet.json'), 'so is a file not there yet')
  t.equal(pathInside(path.join(real, 'mine', 'index.js'), { dir: real }), null, 'a link in the folder to a folder outside it is outside')
  t.equal(pathInside(path.join(link, 'slow')), null, 'and none of it is in the repository')
  t.equal(realPath(path.join(link, 'a', 'b')), path.join(fs.realpathSync.native(real), 'a', 'b'), 'the real path of a file not there yet')
})

t.test('the repository, by default', async (t) => {
  t.equal(pathInside(path.join(ROOT, 'slow', 'etag.js')), path.join('slow', 'etag.js'))
  t.equal(pathInside(path.join(ROOT, '..', 'elsewhere')), null)
})
