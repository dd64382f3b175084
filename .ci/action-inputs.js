#!/usr/bin/env node
'use strict'

// The inputs of every action the workflow pins, read from its action.yml at that commit: the test holds each
// `with:` to them, which actionlint does not for a pinned action. When Renovate moves a pin, run with a clone:
//   node .ci/action-inputs.js actions/setup-node /tmp/setup-node

const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const YAML = require('yaml')

const ROOT = path.join(__dirname, '..')
const WORKFLOW = '.github/workflows/ci.yml'
const STORED = path.join(__dirname, 'action-inputs.json')

// `uses: owner/repo@<40 hex> # vX.Y.Z`: a commit, and the version it is.
const PINNED = /^\s*(?:- )?uses:\s*([\w.-]+\/[\w.-]+)@([0-9a-f]{40})\s+#\s*(v\d+\.\d+\.\d+)\s*$/

/** Every `uses:` line of `workflowText`: { line, action, sha, version } (sha null when not pinned). */
function pinsOf (workflowText) {
  return workflowText.split('\n').map((text, index) => ({ text, line: index + 1 }))
    .filter(({ text }) => /^\s*(?:- )?uses:/.test(text))
    .map(({ text, line }) => {
      const match = PINNED.exec(text)
      return match ? { line, action: match[1], sha: match[2], version: match[3] } : { line, action: text.trim().replace(/^- /, ''), sha: null }
    })
}

/** What is wrong with `workflowText` against the stored inputs, as sentences: pins, unknown and missing inputs. */
function findings (workflowText, stored) {
  const wrong = []
  const pins = pinsOf(workflowText)
  for (const pin of pins) {
    if (!pin.sha) {
      wrong.push(`${WORKFLOW}:${pin.line}: "${pin.action}" is not pinned to a full commit SHA with its version in a comment`)
    } else if (stored[pin.action]?.sha !== pin.sha || stored[pin.action]?.version !== pin.version) {
      wrong.push(`${WORKFLOW}:${pin.line}: ${pin.action}@${pin.sha} (${pin.version}): its inputs are not read at that commit; run node .ci/action-inputs.js ${pin.action} CLONE`)
    }
  }
  const workflow = YAML.parse(workflowText)
  for (const [id, job] of Object.entries(workflow.jobs ?? {})) {
    for (const step of job.steps ?? []) {
      if (!step.uses) continue
      const inputs = stored[step.uses.split('@')[0]]?.inputs
      if (!inputs) continue
      const given = Object.keys(step.with ?? {})
      for (const name of given.filter((key) => !(key in inputs))) {
        wrong.push(`job ${id}: ${step.uses.split('@')[0]} has no input "${name}" (its inputs: ${Object.keys(inputs).join(', ')})`)
      }
      for (const name of Object.keys(inputs).filter((key) => inputs[key].required && !given.includes(key))) {
        wrong.push(`job ${id}: ${step.uses.split('@')[0]} requires the input "${name}"`)
      }
    }
  }
  return wrong
}

/** The inputs of the action in `clone` at `sha`: { name: { required } }. */
function readInputs (clone, sha) {
  const git = (...args) => execFileSync('git', ['-C', clone, ...args], { encoding: 'utf8' })
  const file = git('ls-tree', '--name-only', sha).split('\n').find((name) => /^action\.ya?ml$/.test(name))
  if (!file) throw new Error(`no action.yml at ${sha} in ${clone}`)
  const action = YAML.parse(git('show', `${sha}:${file}`))
  // An input with a default is never missing, whatever `required` says.
  return Object.fromEntries(Object.entries(action.inputs ?? {}).map(([name, input]) =>
    [name, { required: input?.required === true && input?.default === undefined }]))
}

function main ([action, clone]) {
  if (!action || !clone) throw new Error('usage: node .ci/action-inputs.js OWNER/REPO CLONE')
  const pin = pinsOf(fs.readFileSync(path.join(ROOT, WORKFLOW), 'utf8')).find((entry) => entry.action === action && entry.sha)
  if (!pin) throw new Error(`${WORKFLOW} pins no ${action}`)
  const tagged = execFileSync('git', ['-C', clone, 'rev-parse', `${pin.version}^{commit}`], { encoding: 'utf8' }).trim()
  if (tagged !== pin.sha) throw new Error(`${action} ${pin.version} is ${tagged} in ${clone}, the workflow pins ${pin.sha}`)
  const stored = fs.existsSync(STORED) ? JSON.parse(fs.readFileSync(STORED, 'utf8')) : {}
  stored[action] = { sha: pin.sha, version: pin.version, inputs: readInputs(clone, pin.sha) }
  const sorted = Object.fromEntries(Object.keys(stored).sort().map((name) => [name, stored[name]]))
  fs.writeFileSync(STORED, JSON.stringify(sorted, null, 2) + '\n')
  console.log(`action-inputs: ${action} ${pin.version}: ${Object.keys(stored[action].inputs).length} inputs written to .ci/action-inputs.json`)
}

if (require.main === module) {
  try {
    main(process.argv.slice(2))
  } catch (error) {
    console.error(`action-inputs: ${error.message}`)
    process.exitCode = 1
  }
}

module.exports = { findings, pinsOf, readInputs, STORED }
