'use strict'

// The options of `node bench`, checked before anything starts: its modes and their defaults. The
// options every measuring command reads alike are bench/protocol/options.js.

const path = require('node:path')
const { ROOT } = require('../tooling/repo')
const { UsageError, parseCommandLine, numberOption } = require('../tooling/command')
const { TARGETS, targetsIn } = require('./protocol/targets')
const { PROTOCOL_OPTIONS, parseLoad, parseAlpha, checkConditionalWindow, parseTargets, parseUserTarget, parseCpuTax, parseInstructionTax, parseOutputs } = require('./protocol/options')
const { parseMeter } = require('./meters')
const { REFERENCE, MODES } = require('./judge/goals')
const { INSTRUCTION_DEFAULTS } = require('./judge/instructions')

// What --meter instructions counts unless --targets names targets: slow's count depends on how many
// requests it has served, and node-http's and fastify's are not the product's.
const INSTRUCTION_TARGETS = targetsIn('counted')

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
  --baseline FILE       an earlier --json result. On CPU time, a report, not a
                        gate: each CPU-per-request ratio against it, by a
                        permutation test over the rounds, never an exit 1 (a
                        stored CPU run moves with a shared machine: 4 false
                        alarms in 10 runs of the same code, docs/ci-gate.md);
                        gate with bench:compare, or with --meter instructions
  --alpha P             the gate's false-alarm rate (default 0.01; 0.05
                        with --meter instructions)
  --cpu-tax TARGET=US   add US microseconds of busy CPU to each request of
                        TARGET (a regression made to order; see bench:calibrate)
  --meter instructions  also count instructions per request under valgrind
                        (Linux): ${INSTRUCTION_TARGETS.join(', ')} of the run's targets, or every
                        target --targets names, and your own; with --baseline,
                        the gate is on those counts instead of CPU ratios,
                        against a --json result of a run with this meter
                        counted on the same Node, valgrind, C library and CPU
                        (as valgrind shows it): another is refused, exit 3
  --instruction-tax TARGET=N
                        with --meter instructions: add N instructions of work
                        to each request of TARGET (see bench:calibrate)
  --max-regression PCT  with --meter instructions and --baseline: the
                        allowance (default ${INSTRUCTION_DEFAULTS.maxRegression * 100})
  --help                this text

Modes (connections / warm-up / measured / slow's warm-up and measured
requests / rounds):
${Object.entries(MODES).map(([name, { protocol: p }]) =>
  `  ${name.padEnd(6)} ${p.connections} / ${p.warmup} s / ${p.duration} s / ${p.warmupRequests} + ${p.requests} / ${p.rounds}\n` +
  `         targets: ${p.targets.join(', ')}`).join('\n')}

Exit codes: 0 done (every goal held, in full and ci); 1 a goal or check
failed, or an instruction count regressed against --baseline; 2 bad
options, or no valgrind for --meter instructions; 3 an instruction
baseline that cannot be judged here (one line says why: count one here
with --meter instructions --json FILE, or use npm run bench:compare).

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

// `argv` (without node and script) as the run's settings, `protocol` among them; throws a UsageError
// for anything it cannot accept.
function parseOptions (argv) {
  const { values } = parseCommandLine(argv, {
    ...PROTOCOL_OPTIONS,
    mode: { type: 'string', default: 'full' },
    html: { type: 'string' },
    'no-html': { type: 'boolean', default: false },
    baseline: { type: 'string' },
    'max-regression': { type: 'string' }
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

  const protocol = { targets: withUsers, ...parseLoad(values, mode.protocol) }
  checkConditionalWindow(protocol.targets, targets, protocol)
  const meter = parseMeter(values.meter)
  const instructionTargets = meter.targetsToCount([...(values.targets === undefined ? INSTRUCTION_TARGETS.filter((t) => chosen.includes(t)) : chosen), ...userNames])
  const alpha = parseAlpha(values.alpha, meter.defaults.bench.alpha)
  const { json, markdown, bencherJson, githubBenchmarkJson } = parseOutputs(values)
  return {
    mode: values.mode,
    protocol,
    targets,
    cpuTax: Object.fromEntries(values['cpu-tax'].map((text) => parseCpuTax(text, protocol.targets))),
    meter,
    instructionTargets,
    instructionTax: Object.fromEntries(values['instruction-tax'].map((text) => parseInstructionTax(text, instructionTargets, meter))),
    maxRegression: numberOption('max-regression', values['max-regression'], INSTRUCTION_DEFAULTS.maxRegression * 100, { min: 0 }) / 100,
    json,
    html: values['no-html'] ? null : (values.html ?? defaultHtmlPath(values.mode)),
    markdown,
    bencherJson,
    githubBenchmarkJson,
    baseline: values.baseline,
    alpha
  }
}

// Under the repo's git-ignored results/, named by mode and start time.
function defaultHtmlPath (mode) {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')
  return path.join(ROOT, 'results', `${mode}-${stamp}.html`)
}

module.exports = { parseOptions, USAGE }
