'use strict'

// Flags for a file each write of which waits for the disk (O_DSYNC); null without O_DSYNC (Windows).

const { constants: { O_WRONLY, O_CREAT, O_TRUNC, O_DSYNC } } = require('node:fs')

const SYNCHRONOUS_FILE_FLAGS = O_DSYNC === undefined ? null : O_WRONLY | O_CREAT | O_TRUNC | O_DSYNC

const NO_SYNCHRONOUS_FILE = 'a synchronous file needs O_DSYNC, which this system does not have (Windows): the logging story\'s slow disk cannot be made here'

module.exports = { SYNCHRONOUS_FILE_FLAGS, NO_SYNCHRONOUS_FILE }
