'use strict'

// How a "synchronous file" is opened, for the bench's 'synchronous-file'
// stdout and for the preload diagnose gives the logging story: created or
// truncated, written only, O_DSYNC (every write returns once the disk has
// the data, as on a slow or network file system).

const { constants: { O_WRONLY, O_CREAT, O_TRUNC, O_DSYNC } } = require('node:fs')

// null where the system has no O_DSYNC (Windows): there a write never waits
// for the disk this way, and the logging story's slow line cannot be made.
const SYNCHRONOUS_FILE_FLAGS = O_DSYNC === undefined ? null : O_WRONLY | O_CREAT | O_TRUNC | O_DSYNC

const NO_SYNCHRONOUS_FILE = 'a synchronous file needs O_DSYNC, which this system does not have (Windows): the logging story\'s slow disk cannot be made here'

module.exports = { SYNCHRONOUS_FILE_FLAGS, NO_SYNCHRONOUS_FILE }
