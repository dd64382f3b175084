'use strict'

// The skeleton every command here stands on (bench, soak, diagnose,
// trace-leak, screenshot, check:curl): a command is { name, usage, main },
// where `main(argv, { stdout, stderr })` resolves to an exit code, 0 or 1.
//   --help           prints the usage, exit 0
//   a UsageError     its message and the usage's first line, exit 2
//   any other error  its message (the stack with DEBUG set), exit 1
// Every rejection ends here: nothing is left unhandled.

const { parseArgs } = require('node:util')
const { hideRetimerLateTimerWarning } = require('./late-timer-warning')

class UsageError extends Error {}

/**
 * Run `command` on `argv`. Resolves to the exit code; never rejects.
 */
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

/**
 * Run `command` as this process, on its command-line arguments.
 */
function runAsProcess (command) {
  // The load autocannon drives runs in the command's own process.
  hideRetimerLateTimerWarning()
  runCommand(command, process.argv.slice(2)).then((code) => { process.exitCode = code })
}

/**
 * util.parseArgs, strict, with its errors turned into usage errors.
 * `allowNegative` accepts --no-NAME for a boolean --NAME. Returns { values,
 * positionals }.
 */
function parseCommandLine (argv, options, { positionals = false, allowNegative = false } = {}) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: positionals, allowNegative })
  } catch (err) {
    throw new UsageError(err.message)
  }
}

/**
 * The number an option `--name` was given as `text` (or `fallback` when it
 * was not given). Throws a UsageError naming the option when `text` is not
 * a number from `min` to `max` (or not an integer, with `integer`).
 */
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
