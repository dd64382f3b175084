'use strict'

// Command-line options of the benchmark, checked before anything starts.

const path = require('node:path')
const { resolveServerPath } = require('../tooling/server-path')
const { ROOT } = require('../tooling/repo')
const { TARGETS, REFERENCE, MODES, MAX_CONDITIONAL_SECONDS } = require('./judge/goals')
const { UsageError, parseCommandLine, numberOption } = require('../tooling/command')

const USAGE = `Usage: node bench [options]   (npm start, npm run bench, npm run bench:ci)

Runs each target in a fresh process under autocannon load, side by side,
and reports req/s, latency, CPU per request and the ratios between them.

Options:
  --mode MODE           start | full | ci (default full): sets the protocol
                        defaults below and the goals; full and ci fail (exit 1)
                        when a goal is missed, start only reports. A story's
                        pair (docs/stories.md): logging |
                        crypto | backend | cluster, each failing on its goals
  --targets LIST        comma-separated, from: ${Object.keys(TARGETS).join(', ')}
  --target NAME=PATH    also benchmark your own server: \`node PATH\` must
                        listen on the port in PORT (see docs/benchmark.md,
                        "Your own server"); repeatable; measured against ${REFERENCE},
                        and against fast and fixed when they run
  --connections N       concurrent connections (default 100)
  --warmup SECONDS      load before measuring, per target (default: per mode)
  --duration SECONDS    measured load per target and round (default: per mode)
  --warmup-requests N   what slow gets instead of --warmup: its cost grows
                        with every request served, so it is measured at the
                        same request count on every machine (default: per mode)
  --requests N          what slow gets instead of --duration (default: per mode)
  --rounds N            rounds; targets are interleaved, ratios are medians of
                        the rounds' pairs (default: per mode)
  --html FILE           write the run as a self-contained HTML page, charts
                        and figures (default: results/<mode>-<time>.html;
                        \`npm run report -- RUN.json\` makes one from --json)
  --no-html             write no HTML page
  --json FILE           write every figure, the protocol and the machine
  --markdown FILE       write the table and ratios as Markdown
  --bencher-json FILE   write Bencher Metric Format (bencher.dev)
  --github-benchmark-json FILE
                        write github-action-benchmark's customSmallerIsBetter
                        format (CPU per request, latency)
  --baseline FILE       an earlier --json result: fail where a CPU-per-request
                        ratio got worse, by a permutation test over the rounds
  --alpha P             the gate's false-alarm rate (default 0.01)
  --cpu-tax TARGET=US   add US microseconds of busy CPU to each request of
                        TARGET (a regression made to order; see calibrate.js)
  --help                this text

Modes (connections / warm-up / measured / slow's warm-up and measured
requests / rounds):
${Object.entries(MODES).map(([name, { protocol: p }]) =>
  `  ${name.padEnd(6)} ${p.connections} / ${p.warmup} s / ${p.duration} s / ${p.warmupRequests} + ${p.requests} / ${p.rounds}\n` +
  `         targets: ${p.targets.join(', ')}`).join('\n')}

What the output says:
  req/s         responses per second over the measured window
  p50, p97.5, p99 ms
                latency under which 50 %, 97.5 %, 99 % of responses came
  2xx, 304, 503, other
                responses by status; other is any status not in those three
  errors, timeouts
                connections that failed, requests unanswered after 10 s
  CPU µs/req    the server's own user + system CPU time over the measured
                window (its process.cpuUsage()), divided by its responses:
                what one response costs, whatever the load generator does
  pairs         a ratio's value in each round (both targets of a round run
                next to each other in time); the ratio is their median
  holds, SHORT  the ratio reached its goal, or fell short of it
`

/**
 * Parse `argv` (without node and script) into the run's settings:
 * { mode, protocol: { targets, connections, warmup, duration,
 * warmupRequests, requests, rounds }, targets (definitions by name),
 * cpuTax, json, html (a path, or null), markdown, bencherJson,
 * githubBenchmarkJson, baseline, alpha }. Throws UsageError with a message for anything it cannot accept.
 */
function parseOptions (argv) {
  const { values } = parseCommandLine(argv, {
    mode: { type: 'string', default: 'full' },
    targets: { type: 'string' },
    target: { type: 'string', multiple: true, default: [] },
    connections: { type: 'string' },
    warmup: { type: 'string' },
    duration: { type: 'string' },
    'warmup-requests': { type: 'string' },
    requests: { type: 'string' },
    rounds: { type: 'string' },
    json: { type: 'string' },
    html: { type: 'string' },
    'no-html': { type: 'boolean', default: false },
    markdown: { type: 'string' },
    'bencher-json': { type: 'string' },
    'github-benchmark-json': { type: 'string' },
    baseline: { type: 'string' },
    alpha: { type: 'string' },
    'cpu-tax': { type: 'string', multiple: true, default: [] }
  })

  const mode = MODES[values.mode]
  if (!mode) throw new UsageError(`--mode must be one of ${Object.keys(MODES).join(', ')}, got "${values.mode}"`)

  const userTargets = Object.fromEntries(values.target.map(parseUserTarget))
  const targets = { ...TARGETS, ...userTargets }
  const chosen = values.targets === undefined ? mode.protocol.targets : parseTargets(values.targets)
  const userNames = Object.keys(userTargets)
  if (new Set(userNames).size !== values.target.length) throw new UsageError('--target names a target twice')
  const withUsers = [...chosen, ...userNames]
  if (userNames.length > 0 && !withUsers.includes(REFERENCE)) withUsers.push(REFERENCE)

  const protocol = {
    targets: withUsers,
    connections: numberOption('connections', values.connections, mode.protocol.connections, { min: 1, integer: true }),
    warmup: numberOption('warmup', values.warmup, mode.protocol.warmup, { min: 0 }),
    duration: numberOption('duration', values.duration, mode.protocol.duration, { min: 0.5 }),
    warmupRequests: numberOption('warmup-requests', values['warmup-requests'], mode.protocol.warmupRequests, { min: 0, integer: true }),
    requests: numberOption('requests', values.requests, mode.protocol.requests, { min: 1, integer: true }),
    rounds: numberOption('rounds', values.rounds, mode.protocol.rounds, { min: 1, integer: true })
  }
  const conditional = protocol.targets.filter((target) => targets[target].conditional)
  if (conditional.length > 0 && protocol.warmup + protocol.duration > MAX_CONDITIONAL_SECONDS) {
    throw new UsageError(`with ${conditional.join(', ')}, --warmup plus --duration must stay within ` +
      `${MAX_CONDITIONAL_SECONDS} s: fixed's ETag changes once a minute`)
  }
  const alpha = numberOption('alpha', values.alpha, 0.01, { min: 0 })
  if (!(alpha > 0 && alpha < 1)) throw new UsageError(`--alpha must be between 0 and 1, got "${values.alpha}"`)
  return {
    mode: values.mode,
    protocol,
    targets,
    cpuTax: Object.fromEntries(values['cpu-tax'].map((text) => parseCpuTax(text, protocol.targets))),
    json: values.json,
    html: values['no-html'] ? null : (values.html ?? defaultHtmlPath(values.mode)),
    markdown: values.markdown,
    bencherJson: values['bencher-json'],
    githubBenchmarkJson: values['github-benchmark-json'],
    baseline: values.baseline,
    alpha
  }
}

// Under the repo's git-ignored results/, named by mode and start time.
function defaultHtmlPath (mode) {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
  return path.join(ROOT, 'results', `${mode}-${stamp}.html`)
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

// NAME=PATH: a server folder or file, relative to where npm was run from.
function parseUserTarget (text) {
  const match = /^([a-z0-9][a-z0-9._-]*)=(.+)$/i.exec(text)
  if (!match) throw new UsageError(`--target wants NAME=PATH (a name of letters, digits, ".", "_" or "-"), got "${text}"`)
  const [, name, file] = match
  if (TARGETS[name]) throw new UsageError(`--target ${name}: that name is one of the built-in targets`)
  const { entry } = resolvePathOf(name, file)
  return [name, { entry, user: true, about: `your server: node ${file}` }]
}

function resolvePathOf (name, file) {
  try {
    return resolveServerPath(file)
  } catch (err) {
    throw new UsageError(`--target ${name}: ${err.message}`)
  }
}

function parseCpuTax (text, targets) {
  const match = /^([^=]+)=([0-9.]+)$/.exec(text)
  if (!match || !(Number(match[2]) > 0)) throw new UsageError(`--cpu-tax wants TARGET=MICROSECONDS (> 0), got "${text}"`)
  if (!targets.includes(match[1])) throw new UsageError(`--cpu-tax ${match[1]}: not a target of this run`)
  return [match[1], Number(match[2])]
}

module.exports = { parseOptions, parseTargets, parseCpuTax, parseUserTarget, USAGE }
