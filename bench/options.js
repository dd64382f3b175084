'use strict'

// Command-line options of the benchmark, checked before anything starts.

const { TARGETS, MODES, MAX_CONDITIONAL_SECONDS } = require('./goals')
const { UsageError, parseCommandLine, numberOption } = require('../tooling/command')

const USAGE = `Usage: node bench [options]

Runs each target in a fresh process under autocannon load, side by side,
and reports req/s, latency, CPU per request and the ratios between them.

Options:
  --mode MODE          start | full | ci (default full): sets the protocol
                       defaults below and the goals; full and ci fail (exit 1)
                       when a goal is missed, start only reports
  --targets LIST       comma-separated, from: ${Object.keys(TARGETS).join(', ')}
  --connections N      concurrent connections (default 100)
  --warmup SECONDS     load before measuring, per target (default: per mode)
  --duration SECONDS   measured load per target and round (default: per mode)
  --rounds N           rounds; targets are interleaved, ratios are medians of
                       the rounds' pairs (default: per mode)
  --json FILE          write every figure, the protocol and the machine
  --markdown FILE      write the table and ratios as Markdown
  --baseline FILE      an earlier --json result: fail where a ratio got worse
                       by more than the tolerance
  --tolerance PERCENT  for --baseline (default 25)
  --help               this text

Modes (connections / warm-up / duration / rounds):
${Object.entries(MODES).map(([name, { protocol: p }]) =>
  `  ${name.padEnd(6)} ${p.connections} / ${p.warmup} s / ${p.duration} s / ${p.rounds}, targets: ${p.targets.join(', ')}`).join('\n')}
`

/**
 * Parse `argv` (without node and script) into the run's settings:
 * { mode, protocol: { targets, connections, warmup, duration, rounds },
 *   json, markdown, baseline, tolerance }.
 * Throws UsageError with a message for anything it cannot accept.
 */
function parseOptions (argv) {
  const { values } = parseCommandLine(argv, {
    mode: { type: 'string', default: 'full' },
    targets: { type: 'string' },
    connections: { type: 'string' },
    warmup: { type: 'string' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    json: { type: 'string' },
    markdown: { type: 'string' },
    baseline: { type: 'string' },
    tolerance: { type: 'string', default: '25' }
  })

  const mode = MODES[values.mode]
  if (!mode) throw new UsageError(`--mode must be one of ${Object.keys(MODES).join(', ')}, got "${values.mode}"`)

  const protocol = {
    targets: values.targets === undefined ? mode.protocol.targets : parseTargets(values.targets),
    connections: numberOption('connections', values.connections, mode.protocol.connections, { min: 1, integer: true }),
    warmup: numberOption('warmup', values.warmup, mode.protocol.warmup, { min: 0 }),
    duration: numberOption('duration', values.duration, mode.protocol.duration, { min: 0.5 }),
    rounds: numberOption('rounds', values.rounds, mode.protocol.rounds, { min: 1, integer: true })
  }
  const conditional = protocol.targets.filter((target) => TARGETS[target].conditional)
  if (conditional.length > 0 && protocol.warmup + protocol.duration > MAX_CONDITIONAL_SECONDS) {
    throw new UsageError(`with ${conditional.join(', ')}, --warmup plus --duration must stay within ` +
      `${MAX_CONDITIONAL_SECONDS} s: fixed's ETag changes once a minute`)
  }
  return {
    mode: values.mode,
    protocol,
    json: values.json,
    markdown: values.markdown,
    baseline: values.baseline,
    tolerance: numberOption('tolerance', values.tolerance, 25, { min: 0 }) / 100
  }
}

function parseTargets (list) {
  const targets = list.split(',').map((name) => name.trim()).filter(Boolean)
  if (targets.length === 0) throw new UsageError('--targets needs at least one target')
  for (const name of targets) {
    if (!TARGETS[name]) throw new UsageError(`unknown target "${name}": choose from ${Object.keys(TARGETS).join(', ')}`)
  }
  if (new Set(targets).size !== targets.length) throw new UsageError('--targets lists a target twice')
  return targets
}

module.exports = { parseOptions, USAGE }
