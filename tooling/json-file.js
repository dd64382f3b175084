'use strict'

// A command's result on disk: written as indented JSON, read back with a usage error saying what is wrong.

const fs = require('node:fs')
const { UsageError } = require('./command')

function writeJson (file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n')
}

// Throws "cannot read <what>: <why>" where `file` cannot be read or parsed, "<file> <notWanted>" if !isWanted.
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
