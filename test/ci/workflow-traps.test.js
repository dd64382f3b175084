'use strict'

// The workflow's own traps (issue 39, findings 9 to 11): npm piped in
// PowerShell, npm called without `call` in cmd, Linux jobs waiting on macOS
// and Windows, one apt-get line for several packages, and a compare base
// that is not the merge commit's first parent.

const t = require('tap')
const { workflow, jobs, workflowNpmCommands } = require('./ci-files')

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
