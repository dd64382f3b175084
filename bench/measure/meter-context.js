'use strict'

// Where an instruction count was made, beyond the meter: the C library, and the CPU as valgrind shows it to the code (glibc, OpenSSL and
// V8 pick code by CPUID, which valgrind answers itself), read by glibc's loader under valgrind (docs/instructions.md, "A stored baseline").

const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const { readTextOrNull } = require('../../tooling/text-file')

const X86_KINDS = { 0: 'unknown', 1: 'Intel', 2: 'AMD', 3: 'Zhaoxin', 4: 'other' }

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

// The features digest leaves out leaf 1's EBX, whose top byte is the APIC id of the core the loader ran on.
function cpuAsValgrindShowsIt (text) {
  const lines = text.split('\n').filter((line) => /^\w+\.cpu_features\./.test(line) && !/^x86\.cpu_features\.features\[0x0\]\.cpuid\[0x1\]=/.test(line))
  if (lines.length === 0) return null
  const features = crypto.createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 12)
  const field = (name) => lines.find((line) => line.startsWith(`x86.cpu_features.basic.${name}=`))?.split('=')[1]
  const kind = field('kind')
  if (kind === undefined) return `features ${features}`
  return `${X86_KINDS[Number(kind)] ?? `kind ${kind}`} family ${field('family')} model ${field('model')}, features ${features}`
}

function hostCpu (cpuinfo) {
  if (!cpuinfo) return null
  const field = (name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(cpuinfo)?.[1].trim()
  const named = [field('vendor_id'), field('model name')].filter(Boolean).join(' ')
  return named || null
}

module.exports = { describeCountingMachine, cpuAsValgrindShowsIt, hostCpu }
