'use strict'

/**
 * The number a command-line option `--name` was given as `text` (or
 * `fallback` when it was not given). Throws an Error naming the option when
 * `text` is not a number >= `min` (or not an integer, with `integer`).
 */
function numberOption (name, text, fallback, { min, integer = false }) {
  if (text === undefined) return fallback
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got "${text}"`)
  }
  return value
}

module.exports = { numberOption }
