'use strict'

// What can be measured: every target, and how each is started, from
// tooling/targets.js, where tooling/ can read them too.

module.exports = require('../../tooling/targets')
