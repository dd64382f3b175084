'use strict'

// What can be measured: every target, and how each is started, as the
// catalogue (tooling/targets.js) has them. Plain data, read by the commands'
// options, the measuring and the judging alike.

const { TARGETS, targetsIn, theTargetIn } = require('../../tooling/targets')

// The conditional target's ETag must hold for the whole run: fixed's minute
// clock starts with the process, so warm-up plus duration stays under this.
const MAX_CONDITIONAL_SECONDS = 55

module.exports = { TARGETS, targetsIn, theTargetIn, MAX_CONDITIONAL_SECONDS }
