'use strict'

// A preload for Flame's runs (clinic-run.js puts it in NODE_OPTIONS): in the
// one process where 0x has Node turn V8's tick log into frames (`node
// --prof-process --preprocess`), it lets Node's tick processor name the C++
// functions of the node binary itself; in every other process (the server,
// the load) it does nothing.
//
// Without it, Node's tick processor (22, 24 and 26 alike) names none of
// them, for two reasons of its own:
//  - it reads the binary's symbols with `nm` through child_process.spawnSync
//    at spawnSync's default maxBuffer, 1 MiB (lib/internal/v8_prof_polyfill.js),
//    and nm lists tens of megabytes for the official binaries: nm is
//    stopped (ENOBUFS), and all but the first few thousand of their
//    symbols go unread;
//  - V8's reader of nm's lines (LinuxCppEntriesProvider) moves each symbol by
//    the .text section's file offset less its address (`objdump -h`), which
//    suits a shared library, loaded anywhere, but the official binaries are
//    executables loaded at their link address (ELF type EXEC, at 0x400000):
//    there every symbol lands 0x400000 below its code, and a sample in
//    OpenSSL's sha512_block_data_order is named after a function of SQLite.
// On Node 26 that left most of slow's samples in one frame, "[SHARED_LIB]
// …/bin/node". On Node 24 they were not even that: its V8 log lists the
// binary three times from one start address, the tick processor keeps the
// first, which ends before the code, and the samples in Node's C++, in no
// library, were dropped from their stacks ("unaccounted"), their time given
// to the JavaScript function below. docs/diagnose.md, step 2 (Flame).

const fs = require('node:fs')

/**
 * `objdump -h` output with the .text section's file offset replaced by its
 * address when `file` is an ELF executable (EXEC: its symbols are the
 * addresses it runs at), so that V8 moves its symbols by nothing; any other
 * output as it is.
 */
function textAtLinkAddress (objdumpOutput, file) {
  if (!isElfExecutable(file)) return objdumpOutput
  return objdumpOutput.split('\n').map((line) => {
    // Idx Name Size VMA LMA File-off Algn, as V8 splits them.
    const fields = line.trim().split(/\s+/)
    if (fields[1] !== '.text' || fields.length < 6) return line
    fields[5] = fields[3]
    return ` ${fields.join('  ')}`
  }).join('\n')
}

// An ELF file whose e_type (two bytes at offset 16) is ET_EXEC, 2.
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

/**
 * `spawnSync` as the tick processor needs it: output of any size, and
 * objdump's section table of an executable as textAtLinkAddress gives it.
 */
function withSymbols (spawnSync) {
  return function spawnSyncForSymbols (file, args = [], options = {}) {
    const result = spawnSync(file, args, { maxBuffer: Infinity, ...options })
    if (file === 'objdump' && args[0] === '-h' && result.stdout) {
      result.stdout = Buffer.from(textAtLinkAddress(result.stdout.toString(), args[args.length - 1]))
    }
    return result
  }
}

// Node calls child_process.spawnSync by property at each use, so replacing
// it here, before the tick processor runs, is what it calls. Required here
// only: in the server under profile, loading child_process showed in the
// profile as this file's own time.
if (process.execArgv.includes('--prof-process')) {
  const childProcess = require('node:child_process')
  childProcess.spawnSync = withSymbols(childProcess.spawnSync)
}

module.exports = { textAtLinkAddress, isElfExecutable, withSymbols }
