'use strict'

// The meters a gate can read, one module each (--meter NAME), each with the parts cpu.js has.

const { UsageError } = require('../../tooling/command')

const METERS = {
  cpu: require('./cpu'),
  instructions: require('./instructions')
}

const NAMES = Object.keys(METERS)

function parseMeter (text, { choices = `one of ${NAMES.join(', ')}` } = {}) {
  if (!Object.hasOwn(METERS, text)) throw new UsageError(`--meter must be ${choices}, got "${text}"`)
  return METERS[text]
}

module.exports = { METERS, NAMES, parseMeter }
