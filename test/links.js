'use strict'

// Whether this system makes the symbolic links the linked-path tests go
// through (a junction on Windows, which needs no privilege there): Wine 8's
// node.exe, the Windows lane of .ci/run, answers ENOTSUP. Those tests are
// skipped, saying so, where it does not.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

/**
 * Link `link` to the folder `target`: a symbolic link, a junction on
 * Windows.
 */
function linkFolder (target, link) {
  fs.symlinkSync(target, link, 'junction')
}

function probeLinks () {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'links-'))
  try {
    linkFolder(scratch, path.join(scratch, 'link'))
    return false
  } catch (err) {
    return `this system makes no link to a folder (${err.code})`
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

// Why the linked-path tests cannot run here, or false.
const linksMissing = probeLinks()

module.exports = { linkFolder, linksMissing }
