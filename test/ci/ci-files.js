'use strict'

// The two CI definitions, read: .ci/run (this project's CI, Linux) and
// .github/workflows/ci.yml (its steps on GitHub), and the README's test
// command, for the tests of test/ci/.

const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const YAML = require('yaml')
const { ROOT } = require('../../tooling/repo')

const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8')
const WORKFLOW = '.github/workflows/ci.yml'
const ciRun = read('.ci/run')
const workflow = YAML.parse(read(WORKFLOW))
// The Node releases CI tests, written once: { main, test, clinic, windows }.
const nodeLines = JSON.parse(read('.ci/node-lines.json'))
const major = (release) => Number(String(release).split('.')[0])

// A lane's script, once committed (until then .ci/run marks its place).
const committed = (file) => spawnSync('git', ['ls-files', '--error-unmatch', file], { cwd: ROOT }).status === 0

/** The README's test command as printed in Start here, without a comment. */
function readmeTestCommand () {
  const readme = read('README.md')
  const startHere = readme.slice(readme.indexOf('\n## Start here'), readme.indexOf('\n## ', readme.indexOf('\n## Start here') + 1))
  const lines = [...startHere.matchAll(/```sh\n([^]*?)```/g)].flatMap((block) => block[1].split('\n'))
  const line = lines.find((text) => /^npm test\b/.test(text))
  return line.replace(/\s+#.*$/, '').trim()
}

/** .ci/run's lines that are commands, comments and blank lines left out. */
function ciRunLines () {
  return ciRun.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
}

/**
 * The npm commands of .ci/run: { line, command, prefix }, `command` from
 * `npm` to the end of the line, `prefix` what runs it (with_node "$version",
 * and a lane's script such as .ci/linked-paths).
 */
function ciRunNpmCommands () {
  return ciRunLines().filter((line) => !line.startsWith('echo ')).flatMap((line) => {
    const at = line.search(/(?:^|\s)npm (?:test|ci|run)\b/)
    if (at === -1) return []
    const start = line.indexOf('npm', at)
    // To a `||` (what runs when it fails) or a redirection, as in the workflow.
    const command = line.slice(start).split(/\s+(?:\||>|\|\||&&)\s*/)[0].trim()
    return [{ line, command, prefix: line.slice(0, start).trim() }]
  })
}

/** Each job's steps with the shell each `run:` runs in. */
function jobs () {
  return Object.entries(workflow.jobs).map(([id, job]) => {
    const matrix = job.strategy?.matrix ?? {}
    const oses = [...new Set([...(matrix.os ?? [job['runs-on']]), ...(matrix.include ?? []).map((leg) => leg.os).filter(Boolean)])]
    const steps = (job.steps ?? []).map((step) => ({ ...step, shell: step.shell ?? job.defaults?.run?.shell ?? 'bash' }))
    return { id, job, oses, steps, linuxOnly: oses.every((os) => /^ubuntu-/.test(os)) }
  })
}

/**
 * The Node releases a workflow step runs on: its job's setup-node
 * `node-version`, a release, or `${{ matrix.node }}` over
 * `fromJSON(needs.node-lines.outputs.KEY)`, or that output itself, read
 * from .ci/node-lines.json; a step the job runs only where
 * `env.MAIN == 'true'` (MAIN: its matrix release is the main one) on the
 * main release only.
 */
function releasesOfStep (job, step) {
  const setup = (job.steps ?? []).find((s) => String(s.uses).startsWith('actions/setup-node'))
  const version = String(setup?.with?.['node-version'] ?? '')
  const fromLines = (text) => {
    const match = /^\$\{\{ fromJSON\(needs\.node-lines\.outputs\.(\w+)\) \}\}$/.exec(text)
    return match ? [].concat(nodeLines[match[1]]) : null
  }
  const matrixNode = /^\$\{\{ matrix\.node \}\}$/.test(version)
  let releases = fromLines(version) ?? (matrixNode ? fromLines(String(job.strategy?.matrix?.node)) : null) ?? [version]
  if (/\benv\.MAIN == 'true'/.test(String(step.if ?? ''))) releases = releases.filter((release) => release === nodeLines.main)
  return releases
}

/** The npm commands a `run:` text runs, from `npm` to a pipe or redirection. */
function npmCommandsOf (text) {
  return text.split('\n').flatMap((line) => {
    const match = /^\s*(?:call\s+)?(npm (?:test|ci|run)\b.*)$/.exec(line)
    if (!match) return []
    return [match[1].split(/\s+(?:\||>|\*>|\|\||&&)\s*/)[0].trim()]
  })
}

function workflowNpmCommands () {
  return jobs().flatMap(({ id, job, oses, steps }) => steps.filter((step) => step.run).flatMap((step) =>
    npmCommandsOf(step.run).map((command) => ({ id, job, oses, step, command }))))
}

module.exports = { read, ciRun, workflow, nodeLines, major, releasesOfStep, committed, readmeTestCommand, ciRunLines, ciRunNpmCommands, jobs, npmCommandsOf, workflowNpmCommands }
