'use strict'

// The README and docs/ say what the code and the tools do; these checks keep
// them from drifting: every link leads somewhere, every `file:line` holds
// the code the page says it does, and the lines the tools print in the
// workshop steps are the ones the README shows.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { readmeOutput } = require('../readme-output')
const { traceLeak } = require('../../diagnose/trace-leak')
const { README: HINT_SECTIONS } = require('../../workshop/levels')
const { MODES } = require('../../bench/judge/goals')
const { targetsIn } = require('../../tooling/targets')
const { proseCounts } = require('./prose')

const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
const read = (page) => readText(path.join(ROOT, page))

// What each line the pages name holds. A page that names a new line adds it
// here; a line that moves fails here until the page follows it.
const LINES = {
  'slow/etag.js:25': "server.on('after', (req, res) => {",
  'slow/etag.js:25:12': "on('after'",
  'slow/etag.js:42:5': 'attachAfterEvent(this)',
  'fast/etag.js:25': "server.on('after', (req, res) => {",
  'stories/logging/slow.js:19': 'function logRequest',
  'stories/logging/slow.js:1': "'use strict'",
  'stories/crypto/slow.js:16': 'function authenticate',
  'stories/crypto/slow.js:1': "'use strict'",
  'tooling/stdout-to-synchronous-file.js:17': 'write (chunk, encoding, callback)',
  'fixed/index.js:1': "'use strict'"
}

const REPO_FOLDERS = 'slow|fast|fixed|core|stories|bench|check|diagnose|tooling|workshop|test'
const FILE_LINE = new RegExp(`\\b((?:${REPO_FOLDERS})/[\\w./-]*\\.js):(\\d+)(?::(\\d+))?`, 'g')
const LINE_OF = /\b[Ll]ine (\d+) of `((?:[\w.-]+\/)+[\w.-]+\.js)`/g

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
function slug (heading) {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')
}

function anchorsOf (text) {
  const anchors = new Set()
  let inCode = false
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode
    const heading = !inCode && /^#{1,6} (.+)$/.exec(line)
    if (heading) anchors.add(slug(heading[1]))
  }
  return anchors
}

t.test('every relative link and anchor in the README and docs/ leads somewhere', async (t) => {
  const broken = []
  let checked = 0
  for (const page of PAGES) {
    const text = read(page).replace(/```[\s\S]*?```/g, '')
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue // http:, https:, mailto:
      checked++
      const [file, anchor] = target.split('#')
      const linked = file === '' ? page : path.join(path.dirname(page), file)
      if (!fs.existsSync(path.join(ROOT, linked))) {
        broken.push(`${page}: ${target} (no ${linked})`)
      } else if (anchor && !anchorsOf(read(linked)).has(anchor)) {
        broken.push(`${page}: ${target} (no heading #${anchor} in ${linked})`)
      }
    }
  }
  t.ok(checked > 30, `${checked} links checked`)
  t.same(broken, [])
})

t.test('every file:line the README and docs/ name holds the code they say', async (t) => {
  const named = new Map()
  for (const page of PAGES) {
    const text = read(page)
    for (const [, file, line, column] of text.matchAll(FILE_LINE)) named.set(`${file}:${line}${column ? `:${column}` : ''}`, page)
    for (const [, line, file] of text.matchAll(LINE_OF)) named.set(`${file}:${line}`, page)
  }
  t.ok(named.size >= 8, `${named.size} references found`)
  t.same(Object.keys(LINES).filter((reference) => !named.has(reference)), [], 'every line in LINES is named by a page')
  for (const [reference, page] of named) {
    const code = LINES[reference]
    if (code === undefined) {
      t.fail(`${page} names ${reference}: add what that line holds to LINES in this test`)
      continue
    }
    const [file, line, column] = reference.split(':')
    const source = readText(path.join(ROOT, file)).split('\n')[Number(line) - 1] ?? ''
    const at = source.indexOf(code)
    t.ok(at !== -1, `${reference} (${page}) holds ${code}: it holds ${JSON.stringify(source.trim())}`)
    if (column) t.equal(at, Number(column) - 1, `${reference}: column ${column} is where ${code} starts`)
  }
})

t.test("trace-leak's last line is the one the README shows", async (t) => {
  const shown = /^The listener is added by (\S+), (\S+)\.$/.exec(readmeOutput('4', 'npm run trace-leak').pop())
  t.ok(shown, 'the README shows the line last in step 4\'s output')
  const { adder } = await traceLeak()
  t.same(adder, { functionName: shown[1], location: shown[2] })
})

t.test("verify's hints name headings the README has", async (t) => {
  const headings = new Set([...read('README.md').matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]))
  for (const [key, text] of Object.entries(HINT_SECTIONS)) {
    const [, heading] = /^README, "(.+)"$/.exec(text)
    t.ok(headings.has(heading), `${key}: README has "${heading}"`)
  }
})

// A fresh Windows stops a newcomer before the first npm command unless
// Start here says how past each of these: PowerShell's default execution
// policy refuses npm.ps1 ("running scripts is disabled on this system"),
// fnm's `fnm use` needs its line in the PowerShell profile first, and
// nvm-windows' `nvm use` needs an administrator's shell.
t.test('Start here says what a fresh Windows needs before npm runs', async (t) => {
  const startHere = read('README.md').split(/^## Start here$/m)[1]?.split(/^## /m)[0]
  t.ok(startHere, 'the README has Start here')
  t.match(startHere, /Set-ExecutionPolicy -Scope CurrentUser RemoteSigned/, 'the execution policy, and the one command that lets npm run')
  t.match(startHere, /`npm\.cmd`/, 'or npm.cmd, which the policy does not stop')
  t.match(startHere, /fnm env --use-on-cd \\\| Out-String \\\| Invoke-Expression/, "fnm's profile line, as fnm's README gives it")
  const line = read('.nvmrc').trim()
  t.match(startHere, `\`nvm use ${line}\` as administrator`, "nvm-windows' use of .nvmrc's line, as administrator")
})

// docs/benchmark.md's "Goals on any machine" gives every mode's goals, each
// table rendered from goals.js (./rendered.test.js holds it to the code)
// under its mode's heading.
t.test('docs/benchmark.md gives each enforced mode\'s goals under its heading', async (t) => {
  const section = read('docs/benchmark.md').split(/^## Goals on any machine$/m)[1]?.split(/^## /m)[0]
  t.ok(section, 'the section exists')
  const shown = [...section.matchAll(/^### .*\(mode `?(\w+)`?\)\n[^#]*?<!-- rendered: goals:(\w+) -->/gm)].map(([, heading, block]) => [heading, block])
  t.same(shown.map(([heading]) => heading), shown.map(([, block]) => block), 'each table under its own mode')
  t.same(shown.map(([heading]) => heading).sort(), Object.keys(MODES).filter((mode) => MODES[mode].enforce).sort(), 'every enforced mode')
})

// The catalogue decides which variants the README explains: its
// `caseStudy` set, in that order (a variant outside it, a fourth say, needs
// no line here).
t.test("the README's variants table lists the catalogue's case study, in order", async (t) => {
  const section = read('README.md').split(/^## The \w+ variants$/m)[1]?.split(/^## /m)[0]
  t.ok(section, 'the section exists')
  const listed = [...(section ?? '').matchAll(/^\| `(\w+)\/` \|/gm)].map(([, variant]) => variant)
  t.same(listed, targetsIn('caseStudy'))
})

// The README is a newcomer's path, read in fifteen minutes before the
// workshop starts: depth lives in docs/, and this keeps it from growing
// back. Its prose is counted in words as ./prose.js counts them (the
// README before issue 71 had 1,997); the output blocks of its steps are
// what a participant sees, not prose to read.
t.test('the README\'s prose is at most 1,500 words', async (t) => {
  const { words } = proseCounts(read('README.md'))
  t.ok(words <= 1500, `${words} words`)
})
