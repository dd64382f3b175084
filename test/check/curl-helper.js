'use strict'

// Running `npm run check:curl` as a user does, in a child process with the
// real curl, and the names of its checks, for check-curl.test.js and
// check-curl-web-servers.test.js.

const path = require('node:path')
const { spawnSync, execFile } = require('node:child_process')

const COMMAND = path.join(__dirname, '..', '..', 'check')
/** Why check:curl cannot run here, or false. */
const curlMissing = spawnSync('curl', ['--version']).error ? 'curl is not installed here' : false
const CHECKS = {
  first: 'GET answers 200 with an ETag',
  syntax: 'the ETag is an entity-tag',
  exact: 'If-None-Match with the exact tag',
  strength: 'If-None-Match with the tag in its other strength',
  list: 'If-None-Match with the tag inside a list',
  star: 'If-None-Match: *',
  mismatch: 'If-None-Match with a tag that does not match',
  starMissing: 'If-None-Match: * on a missing resource',
  head: 'HEAD is answered like GET, without content',
  conditionalHead: 'HEAD with If-None-Match with the exact tag',
  modifiedSince: 'If-Modified-Since with the Last-Modified date',
  precedenceMatch: 'If-None-Match over If-Modified-Since: the exact tag, an older date',
  precedenceMatchHead: 'HEAD, If-None-Match over If-Modified-Since: the exact tag, an older date',
  precedenceMismatch: 'If-None-Match over If-Modified-Since: a tag that does not match, the Last-Modified date',
  precedenceMismatchHead: 'HEAD, If-None-Match over If-Modified-Since: a tag that does not match, the Last-Modified date'
}
const PRECEDENCE_MATCH = [CHECKS.precedenceMatch, CHECKS.precedenceMatchHead]
const PRECEDENCE_MISMATCH = [CHECKS.precedenceMismatch, CHECKS.precedenceMismatchHead]
const IF_NONE_MATCH_CHECKS = [CHECKS.exact, CHECKS.strength, CHECKS.list, CHECKS.star, CHECKS.conditionalHead]
const NOT_MODIFIED_CHECKS = [...IF_NONE_MATCH_CHECKS, CHECKS.modifiedSince, ...PRECEDENCE_MATCH]
const WITHOUT_LAST_MODIFIED = [CHECKS.modifiedSince, ...PRECEDENCE_MATCH, ...PRECEDENCE_MISMATCH]

function checkCurl (...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [COMMAND, ...args], { encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, stdout, stderr })
    })
  })
}

// Run the checker with --json (and `args`) against `url`: { code, stderr,
// outcomes: { check name: 'pass' | 'fail' | 'skip' }, checks, missingUrl }.
async function checkJson (url, ...args) {
  const { code, stdout, stderr } = await checkCurl('--json', ...args, url)
  if (code === 2) throw new Error(`check:curl could not check ${url}: ${stderr}`)
  const report = JSON.parse(stdout)
  const outcomes = Object.fromEntries(report.checks.map((s) => [s.name, s.outcome]))
  return { code, stderr, checks: report.checks, outcomes, missingUrl: report.missingUrl }
}

// The rule texts a check broke, by its name.
function brokenBy (checks, name) {
  return checks.find((s) => s.name === name).broken
}

// The outcomes every check must have: `failing` fail, `skipped` skip, the rest pass.
function expected ({ failing = [], skipped = [] }) {
  return Object.fromEntries(Object.values(CHECKS).map((name) =>
    [name, failing.includes(name) ? 'fail' : skipped.includes(name) ? 'skip' : 'pass']))
}

module.exports = {
  CHECKS,
  PRECEDENCE_MATCH,
  PRECEDENCE_MISMATCH,
  IF_NONE_MATCH_CHECKS,
  NOT_MODIFIED_CHECKS,
  WITHOUT_LAST_MODIFIED,
  curlMissing,
  checkCurl,
  checkJson,
  brokenBy,
  expected
}
