'use strict'

// The skeleton every command stands on: { name, usage, main }, `main(argv, { stdout, stderr })` resolving to
// an exit code. --help prints the usage (exit 0), a UsageError exits 2, any other error 1 (its stack with DEBUG
// set); nothing is left unhandled.

const { parseArgs } = require('node:util')
const { hideRetimerLateTimerWarning } = require('./late-timer-warning')

class UsageError extends Error {}

async function runCommand ({ name, usage, main }, argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  if (argv.includes('--help') || argv.includes('-h')) {
    stdout.write(usage)
    return 0
  }
  try {
    return await main(argv, { stdout, stderr })
  } catch (err) {
    if (err instanceof UsageError) {
      stderr.write(`${name}: ${err.message}\n${usage.split('\n')[0]}\n(--help for more)\n`)
      return 2
    }
    stderr.write(`${name}: ${process.env.DEBUG ? err.stack : err.message}\n`)
    return 1
  }
}

function runAsProcess (command) {
  // The load autocannon drives runs in the command's own process.
  hideRetimerLateTimerWarning()
  runCommand(command, process.argv.slice(2)).then((code) => { process.exitCode = code })
}

function parseCommandLine (argv, options, { positionals = false, allowNegative = false } = {}) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: positionals, allowNegative })
  } catch (err) {
    throw new UsageError(err.message)
  }
}

function numberOption (name, text, fallback, { min, max = Infinity, integer = false }) {
  if (text === undefined) return fallback
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    const range = max === Infinity ? `>= ${min}` : `from ${min} to ${max}`
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'} ${range}, got "${text}"`)
  }
  return value
}

module.exports = { UsageError, runCommand, runAsProcess, parseCommandLine, numberOption }
