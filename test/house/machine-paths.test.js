'use strict'

// No committed file names a folder of the machine it was made on: a
// fixture or a page shows a participant's clone as /home/participant/seed,
// never a maintainer's home, root's, or a Mac's /Users/NAME.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')

const MACHINE_PATH = /(?:^|[\s"'(=:`])(\/root\/|\/home\/(?!participant\/)[\w.-]+\/|\/Users\/[\w.-]+\/)/

/** The machine paths in `text`, one `line: path` each. */
function machinePaths (text) {
  return text.split('\n').flatMap((line, i) => {
    const found = MACHINE_PATH.exec(line)
    return found ? [`${i + 1}: ${found[1]}`] : []
  })
}

t.test('the check finds a home folder, root\'s and a Mac\'s, and passes the participant\'s', async (t) => {
  t.same(machinePaths('{"name":"/root/node-24/bin/node"}\nat (/home/ada/seed/x.js:1)\ncd /Users/ada/seed'),
    ['1: /root/', '2: /home/ada/', '3: /Users/ada/'])
  t.same(machinePaths('at (/home/participant/seed/slow/etag.js:25:12)\nfile:///home/participant/seed'), [])
})

const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
const skip = tracked.status === 0 ? false : `no git here to list the files (${tracked.error?.code ?? tracked.stderr.trim()})`

// This file's own examples above are the check's, not a machine's.
const SELF = path.relative(ROOT, __filename).split(path.sep).join('/')

t.test('no committed file names a machine\'s folder', { skip }, async (t) => {
  const files = tracked.stdout.split('\0').filter((file) => file !== '' && file !== SELF && fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false })?.isFile())
  const found = files.flatMap((file) => machinePaths(fs.readFileSync(path.join(ROOT, file), 'utf8')).map((where) => `${file}:${where}`))
  t.same(found, [], 'each with its line')
})
