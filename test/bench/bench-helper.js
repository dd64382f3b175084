'use strict'

// Running the benchmark's command in the test's process, with its output
// captured, on a protocol short enough for a test.

const { command } = require('../../bench')
const { runCommand } = require('../../tooling/command')
const { capture } = require('../capture')

// A second of load per target and round, ten connections, slow's request
// counts a tenth of the modes'.
const SHORT = ['--warmup', '0.5', '--duration', '1', '--rounds', '1', '--connections', '10', '--warmup-requests', '20', '--requests', '10']

/**
 * `node bench ...argv`, in this process. Resolves to { code, stdout, stderr }.
 */
async function bench (argv) {
  const stdout = capture()
  const stderr = capture()
  const code = await runCommand(command, argv, { stdout, stderr })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}

module.exports = { bench, SHORT }
