'use strict'

// A command's result on disk: written as indented JSON, read back (a
// stored run for bench's --baseline and for npm run report) with a usage
// error that says what is wrong with the file.

const fs = require('node:fs')
const { UsageError } = require('./command')

function writeJson (file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n')
}

/**
 * The JSON in `file`, when `isWanted(parsed)` holds. Throws a UsageError:
 * "cannot read <what>: <why>" where the file cannot be read or parsed
 * (`what` defaults to the file's name), and "<file> <notWanted>" where it
 * is JSON of another kind.
 */
function readJson (file, { what = file, isWanted, notWanted }) {
  let parsed
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new UsageError(`cannot read ${what}: ${err.message}`)
  }
  if (!isWanted(parsed)) throw new UsageError(`${file} ${notWanted}`)
  return parsed
}

module.exports = { writeJson, readJson }
