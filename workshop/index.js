'use strict'

// `npm run workshop -- new [EXERCISE] [NAME]`: a copy of an exercise's slow server (exercises.js) for a
// participant to fix, in the repo's root beside the variants so that its require('../core/...') lines
// resolve. `npm run workshop -- list`: the exercises. `npm run workshop -- kit DIR`: the offline install
// kit (kit/). Exit codes: 0 made, 1 it could not be written, 2 bad arguments.

const fs = require('node:fs')
const path = require('node:path')
const { runAsProcess, parseCommandLine, UsageError } = require('../tooling/command')
const { ROOT, shownPath } = require('../tooling/repo')
const { buildKit } = require('./kit')
const { EXERCISES, DEFAULT_EXERCISE, MARKER, exerciseNamed, asCopySource } = require('./exercises')

const DEFAULT_NAME = DEFAULT_EXERCISE.defaultName
const NAME = /^[a-z][a-z0-9_-]*$/i

const USAGE = `Usage: npm run workshop -- new [EXERCISE] [NAME]
       npm run workshop -- list
       npm run workshop -- kit DIR

Copies the exercise's slow server into NAME/ in the repo's root: your copy
to fix, started with \`node NAME\` like the variants and checked with
\`npm run verify -- NAME\`. git ignores the folder. EXERCISE is one of
${EXERCISES.map((e) => e.name).join(', ')} (default ${DEFAULT_EXERCISE.name}: slow/ into ${DEFAULT_NAME}/); list shows each
with its time and what it teaches.
kit DIR (for a facilitator, with network): everything a participant needs
to install with no network, for Linux, macOS and Windows, in DIR (docs/workshop.md,
"A room without network"). Built again, it adds only what changed.
Exit codes: 0 made, 1 it could not be written, 2 bad arguments (a name in
use, or not letters, digits, "-" and "_").
`

const IGNORE_ALL = '# A workshop copy (npm run workshop -- new): git ignores this whole folder.\n*\n'

// Copies the exercise's slow server into `<root>/<name>/` and returns the folder: a folder as it is, a story's
// file as the folder's index.js beside the files it requires. Its marker names the exercise for verify. Its own
// .gitignore of `*` lets git ignore any name; .git/info/exclude (never committed) keeps it from npm test's lint,
// which reads only that and the root's.
function newCopy (name, { root = ROOT, gitExclude = true, exercise: exerciseName = DEFAULT_EXERCISE.name } = {}) {
  const exercise = exerciseNamed(exerciseName)
  if (!exercise) throw new UsageError(`no exercise "${exerciseName}": the exercises are ${EXERCISES.map((e) => e.name).join(', ')}`)
  name ??= exercise.defaultName
  if (!NAME.test(name)) throw new UsageError(`the name must be letters, digits, "-" and "_", starting with a letter, got "${name}"`)
  const folder = path.join(root, name)
  if (fs.existsSync(folder)) throw new UsageError(`${name}/ already exists: pick another name, or remove it to start again`)
  const index = path.join(folder, 'index.js')
  if (fs.statSync(path.join(root, exercise.copies)).isDirectory()) {
    fs.cpSync(path.join(root, exercise.copies), folder, { recursive: true })
    // The copy's own comment names the copy: `node mine` starts it, not `node slow`.
    fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace('`node slow` or `node fast` starts this server', `\`node ${name}\` starts this server`))
  } else {
    fs.mkdirSync(folder)
    fs.writeFileSync(index, asCopySource(fs.readFileSync(path.join(root, exercise.copies), 'utf8'), exercise, name))
    for (const file of exercise.with ?? []) fs.copyFileSync(path.join(root, file), path.join(folder, path.basename(file)))
  }
  fs.writeFileSync(path.join(folder, MARKER), JSON.stringify({ exercise: exercise.name }) + '\n')
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
  const [action, ...args] = positionals
  if (!['new', 'list', 'kit'].includes(action)) throw new UsageError(`unknown action "${action ?? ''}": the actions are new, list and kit`)
  // `new NAME` as before there were more exercises: a name that is no exercise's is the leak's copy.
  const exercise = action === 'new' && exerciseNamed(args[0]) ? args.shift() : DEFAULT_EXERCISE.name
  const [name, ...rest] = args
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`)
  if (action === 'list') {
    if (name !== undefined) throw new UsageError(`unexpected argument "${name}"`)
    stdout.write(listExercises())
    return 0
  }
  if (action === 'kit') {
    if (!name) throw new UsageError('kit needs the folder to build it in: npm run workshop -- kit DIR')
    buildKit(path.resolve(name), { log: (line) => stdout.write(`${line}\n`) })
    return 0
  }
  const folder = newCopy(name, { root, gitExclude, exercise })
  const shown = shownPath(root, folder)
  const { made, does: [starts, checks], stuck } = exerciseNamed(exercise)
  const commands = [
    [`node ${shown}`, starts],
    [`npm run verify -- ${shown}`, checks],
    [`npm run verify -- ${shown} --watch`, 'checks it again on every save']
  ]
  const width = Math.max(...commands.map(([command]) => command.length))
  stdout.write([
    ...made(shown),
    '',
    ...commands.map(([command, what]) => `  ${command.padEnd(width)}   ${what}`),
    '',
    stuck,
    ''
  ].join('\n'))
  return 0
}

// The catalogue as a participant reads it: a line each, name, minutes and lesson, then how to start one.
function listExercises () {
  const width = Math.max(...EXERCISES.map((e) => e.name.length))
  const minutes = Math.max(...EXERCISES.map((e) => e.minutes.length))
  return [
    `${EXERCISES.length} exercises: each a slow server to copy, fix and verify.`,
    '',
    ...EXERCISES.map((e) => `  ${e.name.padEnd(width)}  ${`${e.minutes} min`.padEnd(minutes + 4)}  ${e.teaches}`),
    '',
    'Start one with `npm run workshop -- new EXERCISE [NAME]`.',
    ''
  ].join('\n')
}

const command = { name: 'workshop', usage: USAGE, main }

module.exports = { newCopy, command }

if (require.main === module) runAsProcess(command)
