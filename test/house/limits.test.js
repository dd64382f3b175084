'use strict'

// The house's limits (issue 41): no source file over 300 lines, and no
// function over 60, outside slow/ and fast/ (the case study's two variants,
// kept one line apart on purpose: slow-fast-diff.test.js). ESLint's own
// max-lines and max-lines-per-function count them, through the ESLint that
// npm test lints with, with the settings of the command a change is checked
// with by hand (ESLint's defaults, no eslint.config.js), so that both give
// the same numbers:
//   npx eslint --no-config-lookup --report-unused-disable-directives-severity=off
//     --rule '{"max-lines-per-function":["error",{"max":60}],"max-lines":["error",300]}' FILES
// Blank lines and comments count: a file is as long as its reader finds it.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')

const MAX_FILE_LINES = 300
const MAX_FUNCTION_LINES = 60
const EXEMPT = ['slow/', 'fast/']

const { Linter } = require('eslint')
const CONFIG = {
  // A directive for a rule of npm test's lint is not this check's business.
  linterOptions: { reportUnusedDisableDirectives: 'off' },
  rules: {
    'max-lines': ['error', MAX_FILE_LINES],
    'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES }]
  }
}

/** What the limits find in `source`: one line each, `file:line: message`. */
function overLimits (file, source) {
  return new Linter().verify(source, CONFIG, { filename: file })
    .map((message) => `${file}:${message.line}: ${message.fatal ? 'cannot be read: ' : ''}${message.message}`)
}

// The repository's JavaScript: the committed files, as CI sees them (a
// workshop copy of slow/ that a test makes in the root, meanwhile, is not
// the house's).
const tracked = spawnSync('git', ['ls-files', '-z', '--', '*.js', '*.cjs', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
const skip = tracked.status === 0 ? false : `no git here to list the files (${tracked.error?.code ?? tracked.stderr.trim()})`

t.test('the check finds a file over the limit and a function over it, and only those', async (t) => {
  const body = (lines) => Array.from({ length: lines }, (_, i) => `  call(${i})`).join('\n')
  const functionOf = (name, lines) => `function ${name} () {\n${body(lines - 2)}\n}`
  t.same(overLimits('fits.js', `${functionOf('fits', MAX_FUNCTION_LINES)}\n`), [], `a function of ${MAX_FUNCTION_LINES} lines fits`)
  t.match(overLimits('long.js', `${functionOf('long', MAX_FUNCTION_LINES + 1)}\n`), [/^long\.js:1: Function 'long' has too many lines \(61\)/])
  const arrow = `const arrow = () => {\n${body(MAX_FUNCTION_LINES - 1)}\n}\n`
  t.match(overLimits('arrow.js', arrow), [/^arrow\.js:1: Arrow function has too many lines/], 'an arrow function counts')
  const file = `${Array.from({ length: MAX_FILE_LINES + 1 }, (_, i) => `call(${i})`).join('\n')}\n`
  t.match(overLimits('file.js', file), [/^file\.js:301: File has too many lines \(301\)/])
  t.match(overLimits('broken.js', 'function (\n'), [/^broken\.js:1: cannot be read: /], 'a file it cannot read is named, not passed')
})

t.test(`no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}, outside ${EXEMPT.join(' and ')}`, { skip }, async (t) => {
  const files = tracked.stdout.split('\0').filter((file) => file !== '' && !EXEMPT.some((folder) => file.startsWith(folder)))
  t.ok(files.length > 100, `${files.length} files read`)
  const found = files.flatMap((file) => overLimits(file, fs.readFileSync(path.join(ROOT, file), 'utf8')))
  t.same(found, [], 'each over a limit, with its length')
})

// Comments say why, in a sentence or three; a past run's figures and
// incidents belong to the commit that made the change. A comment line, as
// the issue that set the limit counts it: one whose first characters are
// `//`, `/*` or `*`.
const MAX_COMMENT_SHARE = 0.1
const COMMENT_LINE = /^[ \t]*(?:\/\/|\/\*|\*)/

function commentShare (sources) {
  const lines = sources.flatMap((source) => source.replace(/\n$/, '').split('\n'))
  return { comments: lines.filter((line) => COMMENT_LINE.test(line)).length, lines: lines.length }
}

t.test('the comment count reads comment lines, and only those', async (t) => {
  t.same(commentShare(["'use strict'\n// why\nconst a = 1 // not a comment line\n/**\n * what\n */\nconst b = a * 2\n"]), { comments: 4, lines: 7 })
})

t.test(`comments are at most ${MAX_COMMENT_SHARE * 100} % of the lines outside test/`, { skip }, async (t) => {
  const files = tracked.stdout.split('\0').filter((file) => file !== '' && !file.startsWith('test/'))
  const { comments, lines } = commentShare(files.map((file) => fs.readFileSync(path.join(ROOT, file), 'utf8')))
  t.ok(comments / lines <= MAX_COMMENT_SHARE, `${comments} comment lines of ${lines} (${(100 * comments / lines).toFixed(1)} %)`)
})
