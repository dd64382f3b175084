'use strict'

// Preloaded into Flame's runs (clinic-run.js): under `node --prof-process` it lets the tick processor
// name the node binary's C++ functions, reading all of nm's output and .text at its link address.

const fs = require('node:fs')

function textAtLinkAddress (objdumpOutput, file) {
  if (!isElfExecutable(file)) return objdumpOutput
  return objdumpOutput.split('\n').map((line) => {
    // Idx Name Size VMA LMA File-off Algn: File-off becomes the VMA, so V8 shifts no symbol.
    const fields = line.trim().split(/\s+/)
    if (fields[1] !== '.text' || fields.length < 6) return line
    fields[5] = fields[3]
    return ` ${fields.join('  ')}`
  }).join('\n')
}

// e_type, two bytes at offset 16, is ET_EXEC (2): loaded at its link address.
function isElfExecutable (file) {
  let fd
  try {
    fd = fs.openSync(file, 'r')
    const header = Buffer.alloc(18)
    if (fs.readSync(fd, header, 0, header.length, 0) < header.length) return false
    const little = header[5] === 1
    return header.toString('latin1', 0, 4) === '\x7fELF' && (little ? header.readUInt16LE(16) : header.readUInt16BE(16)) === 2
  } catch {
    return false
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

function withSymbols (spawnSync) {
  return function spawnSyncForSymbols (file, args = [], options = {}) {
    const result = spawnSync(file, args, { maxBuffer: Infinity, ...options })
    if (file === 'objdump' && args[0] === '-h' && result.stdout) {
      result.stdout = Buffer.from(textAtLinkAddress(result.stdout.toString(), args[args.length - 1]))
    }
    return result
  }
}

if (process.execArgv.includes('--prof-process')) {
  const childProcess = require('node:child_process')
  childProcess.spawnSync = withSymbols(childProcess.spawnSync)
}

module.exports = { textAtLinkAddress, isElfExecutable, withSymbols }
