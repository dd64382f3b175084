'use strict'

// Doctor's line where its delay rule saw nothing in a leak's load by
// requests (diagnose/index.js, describeUnseenLeak): what the clinic checks
// accept in place of a flagged delay on a machine fast enough.
const UNSEEN_LEAK = /^Doctor: its delay rule \(one delay of 100 ms, or a median of 10 ms\) saw no issue: .* `npm run event-loop -- \S+` judges the growth instead/m

module.exports = { UNSEEN_LEAK }
