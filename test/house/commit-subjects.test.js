'use strict'

// `git log --oneline` must be skimmable: every commit after c1fe237 (the
// last of the long subjects) has a subject of at most 72 characters, the
// detail in its body. Skipped outside a git checkout, and in a shallow
// clone that does not reach c1fe237.

const t = require('tap')
const { execFileSync } = require('node:child_process')
const { ROOT } = require('../../tooling/repo')

const LAST_OLD_STYLE = 'c1fe237'
const MAX_SUBJECT = 72
// On main before this test came: rewording them would rewrite every later
// commit, so they stand as the two exceptions.
const PUBLISHED_BEFORE_THE_TEST = new Set([
  'b81d42caae439a73077be0bddcab756fe1a1fac7',
  '394a5f6cbe02354f557712e83360b7bcef1aba30'
])

function git (args) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
}

function subjectsSince (commit) {
  try {
    git(['rev-parse', '--verify', '--quiet', `${commit}^{commit}`])
  } catch {
    return null
  }
  return git(['log', '--format=%H %s', `${commit}..HEAD`]).split('\n').filter(Boolean)
    .filter((line) => !PUBLISHED_BEFORE_THE_TEST.has(line.slice(0, line.indexOf(' '))))
}

t.test(`every subject since ${LAST_OLD_STYLE} is at most ${MAX_SUBJECT} characters`, async (t) => {
  const subjects = subjectsSince(LAST_OLD_STYLE)
  if (subjects === null) return t.skip(`${LAST_OLD_STYLE} is not in this checkout`)
  const long = subjects.filter((line) => line.slice(line.indexOf(' ') + 1).length > MAX_SUBJECT)
  t.same(long, [], `${subjects.length} commits read`)
})
