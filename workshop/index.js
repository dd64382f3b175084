'use strict'

// `npm run workshop -- new [NAME]`: a copy of slow/ for a participant to fix, in the repo's root beside
// the variants so that its require('../core/...') lines resolve. `npm run workshop -- kit DIR`: the
// offline install kit (kit/). Exit codes: 0 made, 1 it could not be written, 2 bad arguments.

const fs = require('node:fs')
const path = require('node:path')
const { runAsProcess, parseCommandLine, UsageError } = require('../tooling/command')
const { ROOT, shownPath } = require('../tooling/repo')
const { buildKit } = require('./kit')

const DEFAULT_NAME = 'mine'
const NAME = /^[a-z][a-z0-9_-]*$/i

const USAGE = `Usage: npm run workshop -- new [NAME]
       npm run workshop -- kit DIR

Copies slow/ into NAME/ (default ${DEFAULT_NAME}) in the repo's root: your copy of the
case study's server to fix, started with \`node NAME\` like the variants and
checked with \`npm run verify -- NAME\`. git ignores the folder.
kit DIR (for a facilitator, with network): everything a participant needs
to install with no network, for Linux, macOS and Windows, in DIR (docs/workshop.md,
"A room without network"). Built again, it adds only what changed.
Exit codes: 0 made, 1 it could not be written, 2 bad arguments (a name in
use, or not letters, digits, "-" and "_").
`

const IGNORE_ALL = '# A workshop copy (npm run workshop -- new): git ignores this whole folder.\n*\n'

// Copies slow/ into `<root>/<name>/` and returns the folder. Its own .gitignore of `*` lets git ignore
// any name; .git/info/exclude (never committed) keeps it from npm test's lint, which reads only that and the root's.
function newCopy (name = DEFAULT_NAME, { root = ROOT, gitExclude = true } = {}) {
  if (!NAME.test(name)) throw new UsageError(`the name must be letters, digits, "-" and "_", starting with a letter, got "${name}"`)
  const folder = path.join(root, name)
  if (fs.existsSync(folder)) throw new UsageError(`${name}/ already exists: pick another name, or remove it to start again`)
  fs.cpSync(path.join(root, 'slow'), folder, { recursive: true })
  // The copy's own comment names the copy: `node mine` starts it, not `node slow`.
  const index = path.join(folder, 'index.js')
  fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace('`node slow` or `node fast` starts this server', `\`node ${name}\` starts this server`))
  fs.writeFileSync(path.join(folder, '.gitignore'), IGNORE_ALL)
  const gitDir = path.join(root, '.git')
  if (gitExclude && fs.statSync(gitDir, { throwIfNoEntry: false })?.isDirectory()) {
    fs.mkdirSync(path.join(gitDir, 'info'), { recursive: true })
    fs.appendFileSync(path.join(gitDir, 'info', 'exclude'), `/${name}/\n`)
  }
  return folder
}

// `root` and `gitExclude` are newCopy's: a test makes its copy in a folder of its own.
async function main (argv, { stdout, root = ROOT, gitExclude = true }) {
  const { positionals } = parseCommandLine(argv, {}, { positionals: true })
  const [action, name, ...rest] = positionals
  if (action !== 'new' && action !== 'kit') throw new UsageError(`unknown action "${action ?? ''}": the actions are new and kit`)
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  if (action === 'kit') {
    if (!name) throw new UsageError('kit needs the folder to build it in: npm run workshop -- kit DIR')
    buildKit(path.resolve(name), { log: (line) => stdout.write(`${line}\n`) })
    return 0
  }
  const folder = newCopy(name, { root, gitExclude })
  const shown = shownPath(root, folder)
  const commands = [
    [`node ${shown}`, 'starts it, as `node slow` does'],
    [`npm run verify -- ${shown}`, 'checks it: the contract, the leak, the ETag, 304 and its speed'],
    [`npm run verify -- ${shown} --watch`, 'checks it again on every save']
  ]
  const width = Math.max(...commands.map(([command]) => command.length))
  stdout.write([
    `Made ${shown}/, your copy of slow/ to fix. Git ignores it.`,
    `Find the line in ${shown}/etag.js that adds a listener on every request, and fix it.`,
    '',
    ...commands.map(([command, what]) => `  ${command.padEnd(width)}   ${what}`),
    '',
    'Stuck? README step 5 has a hint.',
    ''
  ].join('\n'))
  return 0
}

const command = { name: 'workshop', usage: USAGE, main }

module.exports = { newCopy, command }

if (require.main === module) runAsProcess(command)
