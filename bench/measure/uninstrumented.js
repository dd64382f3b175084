'use strict'

// `env` for a measured server, with a test harness's coverage off (NODE_V8_COVERAGE, and tap's loader unless _TAPJS_PROCESSINFO_COVERAGE_ is '0'): V8's block counters would be measured too.

function uninstrumented (env = {}) {
  return { ...env, NODE_V8_COVERAGE: undefined, _TAPJS_PROCESSINFO_COVERAGE_: '0' }
}

module.exports = { uninstrumented }
