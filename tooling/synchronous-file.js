'use strict'

// How a "synchronous file" is opened, for the bench's 'synchronous-file'
// stdout and for the preload diagnose gives the logging story: created or
// truncated, written only, O_DSYNC (every write returns once the disk has
// the data, as on a slow or network file system).

const { constants: { O_WRONLY, O_CREAT, O_TRUNC, O_DSYNC } } = require('node:fs')

const SYNCHRONOUS_FILE_FLAGS = O_WRONLY | O_CREAT | O_TRUNC | O_DSYNC

module.exports = { SYNCHRONOUS_FILE_FLAGS }
