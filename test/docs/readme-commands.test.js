'use strict'

// Every command the README and docs/ print to be typed must mean the same in
// every shell a participant may paste it into: bash, zsh as a Mac opens it
// (no .zshrc, so `#` starts no comment in an interactive shell), PowerShell
// and cmd (no comments at all). A trailing `# comment` broke each of them
// differently: zsh read `(three to five minutes)` as a glob qualifier and ran
// nothing, `authenticate()` defined shell functions, `>= 60` wrote a file,
// and cmd passed the comment's words to npm.
//
// The rule (docs/tests.md, "Commands in the pages"): a ```sh block is typed
// in any shell, and each of its lines is one command of plain words; a
// ```bash block is typed in bash or zsh only (its page says so), and must
// mean the same in both; every other block (```text, ```yaml) is read, not
// typed. This test feeds each typed block to an interactive `zsh -f -i` and
// to bash, with npm, node, npx, curl and git replaced by shims that record
// the words they receive, and checks those words, that no file was written
// and no function defined; and feeds each ```sh line to Wine's cmd.exe where
// Wine is installed, with an npm.cmd (and the others) recording its %*.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')

// zsh and bash run every block (about 10 s); Wine's first start in a while
// takes longer.
t.setTimeout(180000)

const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
const PROGRAMS = ['npm', 'node', 'npx', 'curl', 'git']
const LANGUAGES = new Set(['sh', 'bash', 'text', 'yaml'])

// A word every shell passes on as it is: no quoting, globbing, expansion,
// redirection, comment or separator in bash, zsh, PowerShell or cmd. A
// leading `=` is zsh's command lookup, a leading `@` PowerShell's splatting,
// `%` and `^` cmd's. (`,` and a bare `--` are PowerShell's too; the README
// says to quote them there.)
const PLAIN_WORD = /^(?![=@])[A-Za-z0-9_./:=,@+-]+$/
// What cmd treats specially, and what would be a comment in bash.
const CMD_SPECIAL = /[&|<>^%"#]/

/**
 * The fenced code blocks of `text`: { lang, line, lines }, `line` the
 * 1-based line of the opening fence.
 */
function codeBlocks (text) {
  const blocks = []
  let open = null
  text.split('\n').forEach((source, index) => {
    const fence = /^```(\S*)\s*$/.exec(source)
    if (!fence) {
      if (open) open.lines.push(source)
      return
    }
    if (open) {
      blocks.push(open)
      open = null
    } else {
      open = { lang: fence[1], line: index + 1, lines: [] }
    }
  })
  return blocks
}

const blocks = PAGES.flatMap((page) => codeBlocks(readText(path.join(ROOT, page))).map((block) => ({ page, ...block })))
const typed = (lang) => blocks.filter((block) => block.lang === lang)
const commandsOf = (block) => block.lines.filter((line) => line.trim() !== '')
const where = (block) => `${block.page}:${block.line}`

// One shim per program, each appending its name and arguments to $SHIM_LOG,
// separated by the ASCII unit separator, the record ended by the record
// separator. (sh, not node: a node shim took a tenth of a second a call.)
function makeShims (dir) {
  fs.mkdirSync(dir)
  for (const program of PROGRAMS) {
    const file = path.join(dir, program)
    fs.writeFileSync(file, `#!/bin/sh\nprintf '%s\\037' ${program} "$@" >> "$SHIM_LOG"\nprintf '\\036' >> "$SHIM_LOG"\n`)
    fs.chmodSync(file, 0o755)
  }
}

function readShimLog (log) {
  if (!fs.existsSync(log)) return []
  return fs.readFileSync(log, 'utf8').split('\x1e').filter(Boolean).map((record) => {
    const [program, ...argv] = record.split('\x1f').slice(0, -1)
    return { program, argv }
  })
}

function which (program) {
  const found = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' })
  return found.status === 0 ? found.stdout.trim() : null
}

const SHELLS = {
  // zsh as a new Mac terminal opens it, minus the rc files: interactive, and
  // INTERACTIVE_COMMENTS off, so `#` is an ordinary character. bash reads a
  // comment alike in either mode; non-interactive, it needs no terminal.
  zsh: { args: ['-f', '-i'], functions: 'print -rl -- ${(k)functions} > "$FUNCTIONS_FILE"' }, // eslint-disable-line no-template-curly-in-string
  bash: { args: ['--norc', '--noprofile', '-s'], functions: 'declare -F > "$FUNCTIONS_FILE"' }
}

/**
 * Run `lines` in `shell` in a fresh folder: what the shims received, the
 * files left in the folder, the functions defined.
 */
function runInShell (shell, lines, scratch) {
  // The same HOME for every run (a command may name "$HOME/…"), the rest
  // a run's own.
  const home = path.join(scratch, 'home')
  fs.mkdirSync(home, { recursive: true })
  const run = fs.mkdtempSync(path.join(scratch, `${shell}-`))
  const cwd = path.join(run, 'clone')
  fs.mkdirSync(cwd)
  const shims = path.join(run, 'shims')
  makeShims(shims)
  const log = path.join(run, 'shim.log')
  const functionsFile = path.join(run, 'functions')
  const script = [...lines, SHELLS[shell].functions, ''].join('\n')
  const ran = spawnSync(which(shell), SHELLS[shell].args, {
    cwd,
    input: script,
    encoding: 'utf8',
    timeout: 30000,
    env: { PATH: `${shims}:/usr/bin:/bin`, HOME: home, SHIM_LOG: log, FUNCTIONS_FILE: functionsFile, TERM: 'dumb', LANG: 'C.UTF-8' }
  })
  const received = readShimLog(log)
  const functions = fs.existsSync(functionsFile) ? fs.readFileSync(functionsFile, 'utf8').trim().split('\n').filter(Boolean) : ['(the shell never reached the end of the block)']
  return { received, files: fs.readdirSync(cwd).sort(), functions, stderr: ran.stderr }
}

const expected = (line) => {
  const [program, ...argv] = line.trim().split(/\s+/)
  return { program, argv }
}

t.test('every code block says whether it is typed: ```sh, ```bash, ```text or ```yaml', async (t) => {
  const unmarked = blocks.filter((block) => !LANGUAGES.has(block.lang)).map((block) => `${where(block)} (\`\`\`${block.lang})`)
  t.ok(blocks.length > 40, `${blocks.length} blocks`)
  t.same(unmarked, [])
})

t.test('every line of a ```sh block is one command of plain words, the same in every shell', async (t) => {
  const lines = typed('sh').flatMap((block) => commandsOf(block).map((line) => ({ at: where(block), line })))
  t.ok(lines.length > 20, `${lines.length} lines`)
  for (const { at, line } of lines) {
    const bad = line.trim().split(/\s+/).filter((word) => !PLAIN_WORD.test(word))
    t.same(bad, [], `${at}: ${line}`)
    t.notOk(CMD_SPECIAL.test(line), `${at}: nothing cmd reads specially in ${line}`)
    t.ok(PROGRAMS.includes(expected(line).program), `${at}: ${line} runs one of ${PROGRAMS.join(', ')}`)
  }
})

// PowerShell reads an unquoted `a,b` as an array, and passes a native
// program its elements as separate arguments: a page with such a word in a
// typed line says PowerShell's form, the word quoted.
t.test('a page with a word with a comma in a ```sh line gives it quoted for PowerShell', async (t) => {
  for (const block of typed('sh')) {
    const text = readText(path.join(ROOT, block.page))
    for (const word of commandsOf(block).flatMap((line) => line.trim().split(/\s+/)).filter((w) => w.includes(','))) {
      t.ok(text.includes(`'${word}'`), `${where(block)}: ${block.page} says '${word}'`)
    }
  }
})

for (const shell of Object.keys(SHELLS)) {
  t.test(`every \`\`\`sh block in ${shell}: each program gets the line's words, nothing else happens`, { skip: !which(shell) && `no ${shell} here` }, async (t) => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-commands-'))
    t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
    for (const block of typed('sh')) {
      const lines = commandsOf(block)
      const run = runInShell(shell, lines, scratch)
      t.same(run.received, lines.map(expected), `${where(block)}: what the programs received${run.stderr.includes(`${shell}:`) ? `; ${shell} said: ${run.stderr.split('\n').filter((l) => l.includes(`${shell}:`)).join(' / ')}` : ''}`)
      t.same(run.files, [], `${where(block)}: no file written`)
      t.same(run.functions, [], `${where(block)}: no function defined`)
    }
  })
}

t.test('every ```bash block means the same in zsh as in bash', { skip: (!which('zsh') || !which('bash')) && 'needs zsh and bash' }, async (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-commands-'))
  t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
  t.ok(typed('bash').length > 0, 'there are bash-only blocks')
  for (const block of typed('bash')) {
    const lines = commandsOf(block)
    const zsh = runInShell('zsh', lines, scratch)
    const bash = runInShell('bash', lines, scratch)
    t.ok(bash.received.length > 0, `${where(block)}: some program ran in bash`)
    t.same(zsh.received, bash.received, `${where(block)}: zsh's programs got bash's words`)
    t.same(zsh.files, bash.files, `${where(block)}: the same files written`)
    t.same(zsh.functions, [], `${where(block)}: no function defined in zsh`)
    t.same(bash.functions, [], `${where(block)}: no function defined in bash`)
  }
})

// cmd.exe under Wine: each line pasted at its prompt (`cmd /c LINE` parses a
// line as the prompt does, % and all), with npm.cmd and the others first on
// its PATH, each appending its name and %* to a file.
const WINE = ['/usr/lib/wine/wine64', which('wine64'), which('wine')].find((w) => w && fs.existsSync(w))
const WINE_PREFIX = process.env.WINEPREFIX || path.join(os.homedir(), '.cache', 'windows-node', 'prefix')
const cmdSkip = !WINE
  ? 'no Wine here (cmd.exe runs under Wine: ../shared/tools/windows-node sets it up)'
  : !fs.existsSync(WINE_PREFIX) ? `no Wine prefix at ${WINE_PREFIX} (../shared/tools/windows-node makes it)` : false

t.test('every ```sh line in cmd: each program gets the line\'s words', { skip: cmdSkip }, async (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-commands-cmd-'))
  t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
  const windows = (p) => `Z:${p.replace(/\//g, '\\')}`
  const log = path.join(scratch, 'cmd.log')
  for (const program of PROGRAMS) {
    // The redirection first: `echo ... 1>>file` would take a trailing 1 as the stream to redirect.
    fs.writeFileSync(path.join(scratch, `${program}.cmd`), '@>>"%SHIM_LOG%" echo %~n0 %*\r\n')
  }
  const env = { ...process.env, WINEPREFIX: WINE_PREFIX, WINEDEBUG: '-all', WINEPATH: windows(scratch), SHIM_LOG: windows(log) }
  // Every line joined by cmd's `&`, in one Wine start (a second or more
  // each): as typed one by one, since no line holds an `&` of its own
  // (checked above), and a batch file started from the prompt returns to it.
  const lines = typed('sh').flatMap((block) => commandsOf(block).map((line) => ({ at: where(block), line: line.trim() })))
  const run = spawnSync(WINE, ['cmd', '/c', lines.map(({ line }) => line).join(' & ')], { cwd: scratch, env, encoding: 'utf8', timeout: 120000 })
  const records = fs.existsSync(log) ? fs.readFileSync(log, 'latin1').split('\r\n').filter(Boolean) : []
  t.equal(records.length, lines.length, `one program ran a line${records.length ? '' : ` (nothing ran: ${run.stdout}${run.stderr})`}`)
  lines.forEach(({ at, line }, i) => {
    t.same(records[i] === undefined ? null : expected(records[i]), expected(line), `${at}: ${line}`)
  })
})
