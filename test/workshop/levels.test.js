'use strict'

// verify's levels, a file each (workshop/levels/): every level says its
// title, its lines in verify's help, the README heading its hints send
// to, the sentences verify closes with, and checks; verify's help and its
// order are built from that list, so a new level is a file and a row.
// What the levels find on real servers: verify.test.js.

const t = require('tap')
const { LEVELS, README, levelName, describeLevels } = require('../../workshop/levels')
const { command } = require('../../workshop/verify')

t.test('each level is a file with its title, help lines, README heading and check', async (t) => {
  t.same(LEVELS.map((level) => level.title), [
    'Contract: GET /seed/v1 as the variants answer it',
    'Level 1: the leak is gone',
    'Level 2: the ETag belongs to the body it comes with',
    'Level 3: If-None-Match answered with 304 (RFC 9110, checked with curl)'
  ])
  for (const [index, level] of LEVELS.entries()) {
    const name = levelName(index)
    t.type(level.check, 'function', `${name}: check`)
    t.ok(level.usage.length > 0 && level.usage.every((line) => typeof line === 'string' && 12 + line.length <= 80), `${name}: help lines that fit in 80 columns, indented`)
    t.match(level.readme, /^README, ".+"$/, `${name}: a README heading`)
    t.equal(README[name], level.readme, `${name}: its heading is among the ones docs.test.js holds to the README`)
    t.match(level.held, /^[A-Z].*\.$/, `${name}: a sentence for when it holds`)
    const said = level.asks ?? [level.failing]
    t.ok(said.length > 0 && said.every((line) => /^[A-Z].*\.$/.test(line) && line.length <= 100), `${name}: what it asks, or a sentence for when it fails first, in lines of 100 characters at most`)
  }
  t.same(LEVELS.map((level, index) => levelName(index)), ['contract', 'level 1', 'level 2', 'level 3'])
})

t.test("verify's help lists the levels from their files, in their order", async (t) => {
  t.ok(command.usage.includes(`checks it:\n${describeLevels()}\n  speed `), 'the levels between "checks it:" and speed')
  let from = 0
  for (const [index, level] of LEVELS.entries()) {
    const at = command.usage.indexOf(`  ${levelName(index).padEnd(8)}  ${level.usage[0]}\n`, from)
    t.ok(at > from, `${levelName(index)} listed after the one before`)
    from = at
    for (const line of level.usage.slice(1)) t.ok(command.usage.includes(`\n${' '.repeat(12)}${line}\n`), `${levelName(index)}: "${line}" indented under it`)
  }
  t.match(command.usage, new RegExp(`default ${LEVELS.length - 1}, every level`), 'the default level is the last one')
})
