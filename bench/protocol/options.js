'use strict'

// The command-line options that set a protocol, read alike by every command that measures (node
// bench, bench:compare). Each command keeps its own defaults and usage.

const { resolveServerPath } = require('../../tooling/server-path')
const { UsageError, numberOption } = require('../../tooling/command')
const { TARGETS, MAX_CONDITIONAL_SECONDS } = require('./targets')

// util.parseArgs's description of those options.
const PROTOCOL_OPTIONS = {
  targets: { type: 'string' },
  target: { type: 'string', multiple: true, default: [] },
  connections: { type: 'string' },
  warmup: { type: 'string' },
  duration: { type: 'string' },
  'warmup-requests': { type: 'string' },
  requests: { type: 'string' },
  rounds: { type: 'string' },
  alpha: { type: 'string' },
  'cpu-tax': { type: 'string', multiple: true, default: [] },
  meter: { type: 'string', default: 'cpu' },
  'instruction-tax': { type: 'string', multiple: true, default: [] },
  json: { type: 'string' },
  markdown: { type: 'string' },
  'bencher-json': { type: 'string' },
  'github-benchmark-json': { type: 'string' }
}

// The load's numbers from parsed `values`, `defaults`' where not given.
function parseLoad (values, defaults, { rounds = { min: 1 } } = {}) {
  return {
    connections: numberOption('connections', values.connections, defaults.connections, { min: 1, integer: true }),
    warmup: numberOption('warmup', values.warmup, defaults.warmup, { min: 0 }),
    duration: numberOption('duration', values.duration, defaults.duration, { min: 0.5 }),
    warmupRequests: numberOption('warmup-requests', values['warmup-requests'], defaults.warmupRequests, { min: 0, integer: true }),
    requests: numberOption('requests', values.requests, defaults.requests, { min: 1, integer: true }),
    rounds: numberOption('rounds', values.rounds, defaults.rounds, { ...rounds, integer: true })
  }
}

function parseAlpha (text, fallback) {
  const alpha = numberOption('alpha', text, fallback, { min: 0 })
  if (!(alpha > 0 && alpha < 1)) throw new UsageError(`--alpha must be between 0 and 1, got "${text}"`)
  return alpha
}

function checkConditionalWindow (targets, definitions, { warmup, duration }) {
  const conditional = targets.filter((target) => definitions[target].conditional)
  if (conditional.length > 0 && warmup + duration > MAX_CONDITIONAL_SECONDS) {
    throw new UsageError(`with ${conditional.join(', ')}, --warmup plus --duration must stay within ` +
      `${MAX_CONDITIONAL_SECONDS} s: fixed's ETag changes once a minute`)
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

// --target NAME=PATH: a server folder or file, relative to where npm was run from.
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

// An --instruction-tax of 0 loads the tax's hook with no work: what a calibration's clean side gets.
function parseInstructionTax (text, targets, meter) {
  const match = /^([^=]+)=([0-9]+)$/.exec(text)
  if (!match) throw new UsageError(`--instruction-tax wants TARGET=INSTRUCTIONS (a whole number), got "${text}"`)
  if (!meter.takesInstructionTax) throw new UsageError('--instruction-tax taxes the instruction count: it needs --meter instructions')
  if (!targets.includes(match[1])) throw new UsageError(`--instruction-tax ${match[1]}: not a target of this run`)
  return [match[1], Number(match[2])]
}

function parseOutputs (values) {
  return { json: values.json, markdown: values.markdown, bencherJson: values['bencher-json'], githubBenchmarkJson: values['github-benchmark-json'] }
}

module.exports = { PROTOCOL_OPTIONS, parseLoad, parseAlpha, checkConditionalWindow, parseTargets, parseUserTarget, parseCpuTax, parseInstructionTax, parseOutputs }
