'use strict'

// What can be measured, as the catalogue (tooling/targets.js) has it, for every room of bench/.

const { TARGETS, targetsIn, theTargetIn } = require('../../tooling/targets')

// fixed's ETag changes each minute from its start, so warm-up plus duration stays under this.
const MAX_CONDITIONAL_SECONDS = 55

module.exports = { TARGETS, targetsIn, theTargetIn, MAX_CONDITIONAL_SECONDS }
