'use strict'

// Preloaded by .ci/windows-lane when it runs a test file under Windows'
// node.exe on Wine: `windows-node node -r ./test/windows/wine-realpath.js
// test/X.test.js`. Wine 8 shows a Unix symbolic link to node.exe as a plain
// folder (lstat: not a link; readlink: EINVAL), so Node's own realpath keeps
// a link's path, and tap's plugin build, which links
// node_modules/@tapjs/test/test-built/node_modules/@tapjs/core to
// node_modules/@tapjs/core, loads @tapjs/core twice: `require('tap')` then
// throws "Cannot access 'Test' before initialization". The system's
// realpath (GetFinalPathNameByHandle) does resolve such a link, so it
// stands in for Node's here. On a real Windows, tap links with a junction,
// which Node's realpath resolves: nothing there needs this.

const fs = require('node:fs')

fs.realpathSync = fs.realpathSync.native
