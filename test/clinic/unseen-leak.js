'use strict'

// Doctor's line where its delay rule saw nothing in a leak's load by
// requests (diagnose/index.js, describeUnseenLeak): what the clinic checks
// accept in place of a flagged delay on a machine fast enough.
const UNSEEN_LEAK = /^Doctor's delay rule sees no issue: on a CPU this fast, [\d,]+ requests stay under its line\.\n {2}the rule: one delay of 100 ms, or a median of 10 ms\n {2}the longest delay: \d+ ms\n {2}A leak shows in how the CPU a response costs grows\. `npm run event-loop -- \S+` judges that\.$/m

module.exports = { UNSEEN_LEAK }
