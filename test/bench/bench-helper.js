'use strict'

// Running the benchmark's command in the test's process, with its output
// captured, on a protocol short enough for a test.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { command } = require('../../bench')
const { runCommand } = require('../../tooling/command')
const { capture } = require('../capture')

// A second of load per target and round, ten connections, slow's request
// counts a tenth of the modes'.
const SHORT = ['--warmup', '0.5', '--duration', '1', '--rounds', '1', '--connections', '10', '--warmup-requests', '20', '--requests', '10']

/**
 * `node bench ...argv`, in this process. Resolves to { code, stdout, stderr }.
 * Its HTML page, unless argv names one or none, goes to a temporary folder
 * removed once the run ends: a test leaves nothing in the repo's results/.
 */
async function bench (argv) {
  const page = argv.includes('--html') || argv.includes('--no-html') ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'bench-page-'))
  const stdout = capture()
  const stderr = capture()
  try {
    const code = await runCommand(command, page ? [...argv, '--html', path.join(page, 'run.html')] : argv, { stdout, stderr })
    return { code, stdout: stdout.text(), stderr: stderr.text() }
  } finally {
    if (page) fs.rmSync(page, { recursive: true, force: true })
  }
}

// bench:compare's rounds of one target, whose head costs
// `changes[i]` more than its base.
function pairsOf (target, changes) {
  return changes.map((change, i) => ({
    target,
    round: i + 1,
    base: { cpuMicrosPerRequest: 50, requestsPerSecond: 1000, latencyP99: 10 },
    head: { cpuMicrosPerRequest: 50 * (1 + change), requestsPerSecond: 1000 / (1 + change), latencyP99: 10 }
  }))
}

module.exports = { bench, SHORT, pairsOf }
