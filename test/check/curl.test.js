'use strict'

// `npm run check:curl` with the real curl against real servers: the ones
// that follow RFC 9110 pass (fixed, express 5), the ones that do not fail
// on exactly the checks where they break it, and nothing crashes. Web
// servers nobody here wrote: curl-web-servers.test.js. On every Node line:
// the verdicts are the servers' answers, which no line changes, and a
// server that breaks on one line is what the suite is there to catch.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const http = require('node:http')
const { promisify } = require('node:util')
const { execFile } = require('node:child_process')
const { startChildProcess } = require('../servers')
const {
  CHECKS, PRECEDENCE_MATCH, PRECEDENCE_MISMATCH, IF_NONE_MATCH_CHECKS, NOT_MODIFIED_CHECKS, WITHOUT_LAST_MODIFIED,
  curlMissing, checkCurl, checkJson, brokenBy, expected
} = require('./curl-helper')
const { urlOf } = require('../../core/launch')
const { spawnServer } = require('../../tooling/spawn-server')
const servers = require('./fixtures/conditional-get-servers')
const { SEED_PATH } = require('../../core/seed-contract')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { readmeOutput, unmatchedLine } = require('../readme-output')

const execFileAsync = promisify(execFile)
// Where step 7 of the README has the participant's `node fixed` listen; the test's fixed is elsewhere.
const README_URL = 'http://127.0.0.1:3000/seed/v1'

// The line of a ```sh block in step `step` of the README that starts with `command`.
function readmeCommand (step, command) {
  const section = readText(path.join(ROOT, 'README.md')).split(new RegExp(`^### ${step}\\. `, 'm'))[1].split(/^##+ /m)[0]
  const line = section.split('\n').find((l) => l.startsWith(command))
  if (!line) throw new Error(`step ${step} of the README has no command starting with \`${command}\``)
  return line
}

// About 28 check:curl runs, each a child node and up to 16 curls: under
// coverage on a busy machine that comes near tap's default 30 s for a file
// (docs/conditional-get.md has the times).
t.setTimeout(60000)

async function listen (t, server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    (server.server || server).closeAllConnections()
    server.close(resolve)
  }))
  return urlOf(server) + `${SEED_PATH}`
}

t.test('fixed passes every check; the If-Modified-Since checks are skipped, not passed', { skip: curlMissing }, async (t) => {
  const { url } = await startChildProcess(t, 'fixed')
  const { code, outcomes } = await checkJson(url)
  t.equal(code, 0, 'exit 0')
  t.same(outcomes, expected({ skipped: WITHOUT_LAST_MODIFIED }))

  t.test('the lines a person reads: PASS, FAIL or SKIP, what was sent and what came back, the verdict', async (t) => {
    const { code, stdout } = await checkCurl(url)
    t.equal(code, 0, stdout)
    t.match(stdout, /^PASS {2}If-None-Match with the tag in its other strength\n {6}sent GET with If-None-Match: W\/"[^"]+"\n {6}got 304, ETag: "[^"]+", Cache-Control: public, max-age=120, no content$/m)
    t.match(stdout, /^SKIP {2}If-Modified-Since with the Last-Modified date\n {6}\(the 200 has no Last-Modified: nothing to check If-Modified-Since against\)$/m)
    t.match(stdout, /^A missing resource for the \* check: http:\/\/127\.0\.0\.1:\d+\/seed\/checker-missing-[0-9a-f]{12}$/m)
    t.match(stdout, /^PASS {2}If-None-Match: \* on a missing resource\n {6}sent GET http:\/\/127\.0\.0\.1:\d+\/seed\/checker-missing-[0-9a-f]{12} with If-None-Match: \*\n {6}got 404, /m)
    // The verdict first, then the counts last, in the form CI greps for (ci.yml).
    t.match(stdout, /\n\nThe server answers conditional GET as RFC 9110 says\.\n10 passed, 0 failed, 5 skipped\n$/)
    // A 200's got line, with its tag, Cache-Control and size, is the longest: 108 characters.
    for (const line of stdout.split('\n')) t.ok(line.length <= 110, `at most about 100 characters: ${line}`)
  })

  t.test("the README's curl commands of step 7 show what this fixed answers", async (t) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-curl-'))
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
    for (const command of ['curl -sI --etag-save', 'curl -si --etag-compare']) {
      const words = readmeCommand('7', command).split(/\s+/).slice(1).map((word) => word.replace(README_URL, url))
      const { stdout } = await execFileAsync('curl', words, { cwd: dir, encoding: 'latin1' })
      t.equal(unmatchedLine(readmeOutput('7', command), stdout), null, `the README's block after \`${command}\` is this run's, by shape`)
    }
  })
})

t.test('without a URL it starts fixed itself, and stops it', { skip: curlMissing }, async (t) => {
  const { code, stdout } = await checkCurl()
  t.equal(code, 0, stdout)
  t.match(stdout, /\(node fixed, started for this run\)/)
  t.equal(unmatchedLine(readmeOutput('7', 'npm run check:curl'), stdout), null, 'the README shows this run\'s lines, by shape')
})

t.test('express 5 (weak ETags, fresh) passes', { skip: curlMissing }, async (t) => {
  const url = await listen(t, servers.createExpressServer())
  const { code, outcomes, checks } = await checkJson(url)
  t.equal(code, 0, 'exit 0')
  t.same(outcomes, expected({ skipped: WITHOUT_LAST_MODIFIED }))
  t.match(checks.find((s) => s.name === CHECKS.strength).sent, /If-None-Match: "[^"]+"$/, 'the weak tag is sent strong, not as W/W/')
})

t.test('fastify with @fastify/etag fails on a list and on *', { skip: curlMissing }, async (t) => {
  // @fastify/etag compares the whole If-None-Match header with its tag.
  const server = await spawnServer('bench/references/fastify.js')
  t.teardown(server.stop)
  const { code, outcomes, checks } = await checkJson(server.url)
  t.equal(code, 1, 'exit 1')
  t.same(outcomes, expected({ failing: [CHECKS.list, CHECKS.star], skipped: WITHOUT_LAST_MODIFIED }))
  t.match(brokenBy(checks, CHECKS.star), [/^§13\.1\.2: If-None-Match: \* is false whenever/])
})

t.test("restify's conditionalRequest fails the exact quoted tag, and HEAD", { skip: curlMissing }, async (t) => {
  // It unquotes the client's tag when it is made of word characters only,
  // then compares it with the ETag as the route set it, quotes and all.
  const url = await listen(t, servers.createRestifyConditionalServer())
  const { code, outcomes } = await checkJson(url)
  t.equal(code, 1, 'exit 1')
  t.same(outcomes, expected({
    failing: [CHECKS.exact, CHECKS.strength, CHECKS.list, CHECKS.head, CHECKS.conditionalHead],
    skipped: WITHOUT_LAST_MODIFIED
  }))
})

const FAILING_CHECKS = {
  'ignores If-None-Match': [...IF_NONE_MATCH_CHECKS, ...PRECEDENCE_MATCH, ...PRECEDENCE_MISMATCH],
  'compares strongly': [CHECKS.strength],
  'no *': [CHECKS.star],
  'no lists': [CHECKS.list],
  'drops the ETag from the 304': NOT_MODIFIED_CHECKS,
  'drops Cache-Control from the 304': NOT_MODIFIED_CHECKS,
  'HEAD answers 405': [CHECKS.head, CHECKS.conditionalHead, CHECKS.precedenceMatchHead, CHECKS.precedenceMismatchHead],
  'needs both conditions': PRECEDENCE_MATCH,
  'takes either condition': PRECEDENCE_MISMATCH,
  '* matches a missing resource': [CHECKS.starMissing]
}
const NAMED_IN_THE_FAILURE = {
  'ignores If-None-Match': /^§13\.1\.2: when a listed entity-tag matches/,
  'compares strongly': /^§8\.8\.3\.2: If-None-Match uses the weak comparison/,
  'no *': /^§13\.1\.2: If-None-Match: \* is false/,
  'no lists': /^§13\.1\.2: when a listed entity-tag matches/,
  'drops the ETag from the 304': /^§15\.4\.5: .*\(this 304: no etag\)$/,
  'drops Cache-Control from the 304': /^§15\.4\.5: .*\(this 304: no cache-control\)$/,
  'HEAD answers 405': /^§9\.3\.2: .*\(this HEAD: status 405 where GET had 200/,
  'needs both conditions': /^§13\.1\.3, §13\.2\.2: .* a tag that matches gets the 304, whatever the date$/,
  'takes either condition': /^§13\.1\.3, §13\.2\.2: .* a tag that does not match gets the 200, whatever the date$/,
  '* matches a missing resource': /^§13\.1\.2: If-None-Match: \* is true when the server has no current representation.*\(without the condition: 404\)$/
}

t.test('a server with one fault fails where it breaks the rule, naming the rule', { skip: curlMissing }, async (t) => {
  t.same(Object.keys(FAILING_CHECKS), Object.keys(servers.FAULTS), 'every fault is tried')
  const correct = await checkJson(await listen(t, servers.createConditionalServer()))
  t.same(correct.outcomes, expected({}), 'without a fault it passes every check, none skipped')
  // All at once: each check waits on a curl at a time, so they overlap
  // (about 11 s one after another under coverage, most of it waiting).
  const faulty = await Promise.all(Object.keys(FAILING_CHECKS).map(async (fault) =>
    checkJson(await listen(t, servers.createConditionalServer(fault)))))
  for (const [i, [fault, failing]] of Object.entries(FAILING_CHECKS).entries()) {
    const { code, outcomes, checks } = faulty[i]
    t.equal(code, 1, `${fault}: exit 1`)
    t.same(outcomes, expected({ failing }), `${fault}: fails ${failing.length} check(s)`)
    t.match(brokenBy(checks, failing[0]), [NAMED_IN_THE_FAILURE[fault]], `${fault}: the rule is named`)
  }
})

t.test('* on a missing resource: where it asks, and a SKIP where nothing is missing', { skip: curlMissing }, async (t) => {
  const url = await listen(t, servers.createConditionalServer('* matches a missing resource'))
  const named = new URL('/elsewhere/gone', url).href
  // Everything is there: * on any path rightly gets a 304, so there is no
  // missing resource to ask about, which a SKIP says (not a PASS).
  const everyPath = await listen(t, servers.createConditionalServer(null, { everyPath: true }))
  const [derived, given, { code, outcomes, checks }] = await Promise.all([
    checkJson(url), checkJson(url, '--missing-url', named), checkJson(everyPath)])

  t.match(derived.missingUrl, /^http:\/\/127\.0\.0\.1:\d+\/seed\/checker-missing-[0-9a-f]{12}$/, 'a sibling of the URL, with a random name')
  t.equal(derived.checks.find((s) => s.name === CHECKS.starMissing).sent, `GET ${derived.missingUrl} with If-None-Match: *`)
  t.equal(given.missingUrl, named, '--missing-url is the URL asked')
  t.equal(given.outcomes[CHECKS.starMissing], 'fail', 'and there the fault is caught too')
  t.equal(code, 0, 'exit 0')
  t.same(outcomes, expected({ skipped: [CHECKS.starMissing] }))
  t.match(checks.find((s) => s.name === CHECKS.starMissing).note,
    /^GET http:\/\/127\.0\.0\.1:\d+\/seed\/checker-missing-[0-9a-f]{12} answered 200, .*, not 404: no missing resource to ask about \(name one with --missing-url\)$/)
})

for (const variant of ['slow', 'fast']) {
  t.test(`${variant}: reported for what it lacks, without a crash`, { skip: curlMissing }, async (t) => {
    const { url } = await startChildProcess(t, variant)
    const { code, stderr, outcomes, checks } = await checkJson(url)
    t.equal(code, 1, 'exit 1')
    t.equal(stderr, '', 'no crash')
    t.same(outcomes, expected({
      failing: [CHECKS.syntax, CHECKS.exact, CHECKS.list, CHECKS.star, CHECKS.head, CHECKS.conditionalHead],
      skipped: [CHECKS.strength, ...WITHOUT_LAST_MODIFIED]
    }))
    t.match(checks[0].note, /the first 200 had no ETag; the second had one/)
    t.match(brokenBy(checks, CHECKS.syntax), [/^§8\.8\.3: an entity-tag is a quoted opaque string/])
  })
}

t.test('nothing to check, or bad arguments: exit 2 with a message', { skip: curlMissing }, async (t) => {
  const unreachable = await checkCurl(`http://127.0.0.1:9${SEED_PATH}`)
  t.equal(unreachable.code, 2)
  t.match(unreachable.stderr, /curl failed \(exit 7\): is the server at http:\/\/127\.0\.0\.1:9\/seed\/v1 up\?/)

  const expressUrl = await listen(t, servers.createExpressServer())
  const missing = await checkCurl(expressUrl.replace(`${SEED_PATH}`, '/nope'))
  t.equal(missing.code, 2)
  t.match(missing.stderr, /answered 404, .*: conditional GET needs a 200 with an ETag to start from/)

  const untagged = await checkCurl(await listen(t, http.createServer((req, res) => res.end('no tag'))))
  t.equal(untagged.code, 2)
  t.match(untagged.stderr, /answered 200, 6 bytes of content: conditional GET needs a 200 with an ETag to start from/)

  const bad = await checkCurl('localhost:3000')
  t.equal(bad.code, 2)
  t.match(bad.stderr, /the URL must start with http:\/\/ or https:\/\//)

  const badMissing = await checkCurl('--missing-url', '/nope', expressUrl)
  t.equal(badMissing.code, 2)
  t.match(badMissing.stderr, /--missing-url must start with http:\/\/ or https:\/\/, got "\/nope"/)
})
