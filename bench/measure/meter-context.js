'use strict'

// Where an instruction count was made, beyond the meter itself
// (bench/measure/instructions.js's describeMeter): the C library and the
// CPU, each of which picks code paths, so that the same code on another
// one counts other instructions. A stored baseline records it and is
// judged only where it is the same (bench/judge/instructions.js).
//
// The CPU that matters is the one valgrind shows the code, not the host's:
// glibc (memcpy, strlen...), OpenSSL and V8 choose their code by CPUID, and
// valgrind answers CPUID itself with a CPU of its own choosing, picked by
// its version and by what the host can do. On an AMD host, for one, glibc
// read the host's own CPU natively and an Intel CPU under valgrind, with
// other features and cache sizes, hence other string functions. So what
// is recorded is what glibc's loader reads under
// valgrind (`ld.so --list-diagnostics`, glibc 2.33 and later: its CPU
// kind, family, model, the CPUID words it keeps and the thresholds it
// derived), in under a second; the host's vendor and model are recorded
// beside it, for the reader.

const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { readTextOrNull } = require('../../tooling/text-file')

// glibc's x86 CPU kinds (sysdeps/x86/include/cpu-features.h).
const X86_KINDS = { 0: 'unknown', 1: 'Intel', 2: 'AMD', 3: 'Zhaoxin', 4: 'other' }

/**
 * Where counts made here would be made: { libc: 'glibc 2.36' (or 'not
 * glibc'), cpu: { host: 'AuthenticAMD AMD EPYC' (or null), guest: what
 * valgrind shows (cpuAsValgrindShowsIt's), or null where it cannot be read
 * } }.
 */
function describeCountingMachine ({ report = process.report.getReport(), cpuinfo = readTextOrNull('/proc/cpuinfo'), run = runUnderValgrind } = {}) {
  const glibc = report.header.glibcVersionRuntime
  const loader = glibc ? report.sharedObjects.find((file) => /\/ld-linux[^/]*\.so/.test(file)) : undefined
  let diagnostics = null
  if (loader) {
    try {
      diagnostics = run(loader)
    } catch {
      // An older glibc has no --list-diagnostics: the guest stays unknown.
    }
  }
  return {
    libc: glibc ? `glibc ${glibc}` : 'not glibc',
    cpu: { host: hostCpu(cpuinfo), guest: diagnostics === null ? null : cpuAsValgrindShowsIt(diagnostics) }
  }
}

function runUnderValgrind (loader) {
  return execFileSync('valgrind', ['--tool=none', '-q', loader, '--list-diagnostics'], { encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'ignore'] })
}

/**
 * The CPU glibc's loader read (`text`: its --list-diagnostics): 'Intel
 * family 0x6 model 0x3c, features a2c2adafbf02' on x86, the features alone
 * elsewhere; null when it printed none. The features are a digest of its
 * cpu_features lines but leaf 1's EBX, whose top byte is the APIC id of the
 * core it ran on, where a CPU passes that through.
 */
function cpuAsValgrindShowsIt (text) {
  const lines = text.split('\n').filter((line) => /^\w+\.cpu_features\./.test(line) && !/^x86\.cpu_features\.features\[0x0\]\.cpuid\[0x1\]=/.test(line))
  if (lines.length === 0) return null
  const features = crypto.createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 12)
  const field = (name) => lines.find((line) => line.startsWith(`x86.cpu_features.basic.${name}=`))?.split('=')[1]
  const kind = field('kind')
  if (kind === undefined) return `features ${features}`
  return `${X86_KINDS[Number(kind)] ?? `kind ${kind}`} family ${field('family')} model ${field('model')}, features ${features}`
}

// The host's CPU, as /proc/cpuinfo names it: 'vendor model', or null.
function hostCpu (cpuinfo) {
  if (!cpuinfo) return null
  const field = (name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(cpuinfo)?.[1].trim()
  const named = [field('vendor_id'), field('model name')].filter(Boolean).join(' ')
  return named || null
}

module.exports = { describeCountingMachine, cpuAsValgrindShowsIt, hostCpu }
