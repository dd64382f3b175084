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
// (node-package.test.js holds .ci/run's choice of Node's package, and
// workflow-traps.test.js the workflow's own traps.)

const t = require('tap')
const { read, ciRun, nodeLines, releasesOfStep, committed, readmeTestCommand, ciRunLines, ciRunNpmCommands, jobs, npmCommandsOf, workflowNpmCommands } = require('./ci-files')

// The workflow's commands that .ci/run does not run as they are, and what in
// .ci/run checks the same: the workshop's commands as a participant types
// them on each system (the workshop job) are run by the test files npm test
// runs on every line; bench:compare needs a pull request's merge commit, and
// npm test runs its real runs (test/serial/bench/compare.test.js). Each
// row: the npm script, the test file, and what that file must contain.
const WORKFLOW_ONLY = {
  'trace-leak': { file: 'test/workshop/commands.test.js', holds: /slow\/etag\.js:25:12/ },
  doctor: { file: 'test/clinic/clinic.test.js', holds: /Doctor flags slow's event-loop delay/ },
  flame: { file: 'test/clinic/clinic.test.js', holds: /flame on slow, in the clone/ },
  'event-loop': { file: 'test/diagnose/event-loop.test.js', holds: /slow: a leak, its delay flagged/ },
  profile: { file: 'test/diagnose/profile.test.js', holds: /profile slow: the after listener's time on top/ },
  workshop: { file: 'test/workshop/commands.test.js', holds: /workshop/ },
  verify: { file: 'test/workshop/verify.test.js', holds: /level 2 not asked/ },
  'check:curl': { file: 'test/check/curl.test.js', holds: /passed, 0 failed/ },
  // bench's last line, the page's path (the workshop job checks its /).
  bench: { file: 'test/bench/html-browser.test.js', holds: /the path is the last line/ },
  'bench:compare': { file: 'test/serial/bench/compare.test.js', holds: /bench\/compare/ },
  // confirm, --markdown and --html: on made-up counts and in Chromium.
  'bench:history': { file: 'test/bench/history/record.test.js', holds: /confirmChanges/ },
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
    /^npm run bench:compare -- --base 'HEAD\^1' --meter instructions --markdown comment\/2-instructions\.md$/,
  // bench:history with the real meter: HEAD counted into the clone's
  // history (fixed only, for time); the workflow counts every target and
  // pushes the history (its history job, on a push to main).
  'npm run bench:history -- record HEAD --targets fixed': /^npm run bench:history -- record HEAD --push origin$/
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
  t.equal(scripts.test, 'eslint . && tap', 'npm test: lint, then tap with its settings')
  t.equal(tap['disable-coverage'], true, 'tap\'s settings leave coverage off')
  t.equal(scripts['test:coverage'], 'tap --no-disable-coverage', 'test:coverage turns it back on')
})

t.test('each npm command of .ci/run runs in the workflow with the same arguments, on the same releases', async (t) => {
  const inWorkflow = workflowNpmCommands()
  const commands = ciRunNpmCommands()
  t.ok(commands.length >= 4, `.ci/run's npm commands found: ${commands.map(({ command }) => command).join(' / ')}`)
  // .ci/run's loops over .ci/node-lines.json's lists: npm test over `test`,
  // the clinic checks over `clinic`; everything else on `main`.
  const LOOPS = { test: 'TEST_LINES', 'test:clinic': 'CLINIC_LINES' }
  for (const { line, command, prefix } of commands) {
    const script = /^npm (?:run )?(\S+)/.exec(command)[1]
    if (script === 'ci') {
      // The install: the workflow's npm ci takes no --prefer-offline
      // (setup-node restores npm's cache, and a runner starts empty).
      t.ok(inWorkflow.some((entry) => entry.command === 'npm ci --no-audit --no-fund'), 'npm ci: in the workflow')
      continue
    }
    let releases = [nodeLines.main]
    if (LOOPS[script]) {
      const key = script === 'test' ? 'test' : 'clinic'
      const label = script === 'test' ? 'npm test' : script
      t.match(prefix, new RegExp(`^(?:timed|beside) "${label} on Node \\$version" with_node "\\$version"(?: \\.ci/linked-paths| in_copy "\\$version")?$`), `${line}: on each release`)
      t.match(ciRun, new RegExp(`for version in "\\$\\{${LOOPS[script]}\\[@\\]\\}"`), `${script}: a loop over ${LOOPS[script]}`)
      t.match(ciRun, new RegExp(`read -r -a ${LOOPS[script]} <<< "\\$\\(node_lines ${key}\\)"`), `${LOOPS[script]}: .ci/node-lines.json's ${key}`)
      releases = nodeLines[key]
    } else {
      t.match(prefix, /with_node "\$MAIN_LINE"$/, `${line}: on MAIN_LINE`)
    }
    const instead = CI_RUN_ONLY[command]
    const matches = inWorkflow.filter((entry) => instead ? instead.test(entry.command) : entry.command === command)
    if (script === 'test') {
      // The Linux matrix; macOS and Windows run .nvmrc's line.
      const linux = matches.filter((entry) => entry.job.strategy?.matrix?.node)
      t.same(linux.map((entry) => releasesOfStep(entry.job, entry.step)), [releases], 'npm test: the workflow\'s Linux matrix, the same releases')
      continue
    }
    t.equal(matches.length, 1, `${command}: once in the workflow, with the same arguments`)
    t.same(matches[0] && releasesOfStep(matches[0].job, matches[0].step), releases, `${command}: on Node ${releases.join(', ')} there`)
  }
  t.match(ciRun, /^MAIN_LINE=\$\(node_lines main\)$/m, 'MAIN_LINE: .ci/node-lines.json\'s main')
})

t.test('the stored instruction baseline gates .ci/run only; the workflow counts the push\'s base', async (t) => {
  const name = 'BENCH_CI_MAX_REGRESSION'
  const allowance = new RegExp(`^${name}=([\\d.]+)$`, 'm').exec(ciRun)?.[1]
  t.ok(allowance, `.ci/run sets ${name}`)
  // docs/ci-gate.md quotes the command with its value: the same one.
  const quoted = /\.ci\/instructions-baseline\.json --max-regression ([\d.]+)`/.exec(read('docs/ci-gate.md').replace(/\s+/g, ' '))?.[1]
  t.equal(quoted, allowance, `docs/ci-gate.md quotes .ci/run's allowance, ${allowance}`)
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
  t.equal(step?.if, "env.MAIN == 'true' && github.event_name == 'push'", 'on a push, on the main release')
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
