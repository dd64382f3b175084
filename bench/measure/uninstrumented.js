'use strict'

// A server started to be measured (CPU time, instructions) runs as a user
// runs it, without a test harness's coverage, which an environment the
// measuring tool was started in would hand down to it: with coverage on,
// V8 bumps a counter at every block a function takes: the instruction
// meter read a tax of 100,000 instructions per request as 700,393 under
// the README's `npm test` (tap's coverage on; issue 39), 700,288 with
// NODE_V8_COVERAGE set (test/bench/instruction-meter-run.test.js). Two ways
// coverage reaches a child:
// - NODE_V8_COVERAGE, Node's own (c8, `node --test
//   --experimental-test-coverage`): a child that has it collects coverage.
// - tap (18 and later): its @tapjs/processinfo adds its loader to the
//   NODE_OPTIONS of every process a test starts, whatever env it is given
//   (it rewrites each spawn's, after this), and the loader starts V8's
//   precise coverage unless _TAPJS_PROCESSINFO_COVERAGE_ is '0', a value
//   processinfo keeps where the child's env sets it.
// Neither means anything to a server outside a test run.

/**
 * `env` (a child's additions to this process's environment, as
 * tooling/spawn-server.js takes them) with the harness's coverage off: an
 * undefined value is left out of a child's environment by Node.
 */
function uninstrumented (env = {}) {
  return { ...env, NODE_V8_COVERAGE: undefined, _TAPJS_PROCESSINFO_COVERAGE_: '0' }
}

module.exports = { uninstrumented }
