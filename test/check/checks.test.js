'use strict'

// check:curl's checks are a table (check/checks.js), a row each: what it
// sends, what it expects, when it cannot be asked. These run the table
// against curl answers written here, no server, no curl: the branches
// where a check is skipped or the check cannot start. What real servers
// get: check-curl.test.js.

const t = require('tap')
const { checkConditionalGet, CHECKS } = require('../../check/conditional-get')
const { CannotCheckError } = require('../../check/curl')
const { CHECKS: NAMES } = require('./curl-helper')

const URL = 'http://stub.invalid/seed/v1'
const MISSING = 'http://stub.invalid/seed/missing'

// A stand-in for curl: `answer({ url, head, fields })` gives { status,
// headers, body }; every call's arguments are kept in `calls`.
function fakeCurl (answer) {
  const calls = []
  const curl = async (args) => {
    calls.push(args)
    const fields = {}
    args.forEach((arg, i) => {
      if (arg === '--header') {
        const [name, value] = args[i + 1].split(/: (.*)/s)
        fields[name] = value
      }
    })
    const head = args.includes('--head')
    const { status, headers = {}, body = '' } = answer({ url: args[args.length - 1], head, fields })
    return `HTTP/1.1 ${status}\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${head ? '' : body}`
  }
  return { curl, calls }
}

t.test('the table holds every check check:curl reports, in its order, each a name and an expectation', async (t) => {
  t.same(CHECKS.map((check) => check.name), Object.values(NAMES))
  for (const check of CHECKS) t.type(check.expect, 'function', check.name)
})

t.test('a check reads its request off its row: the line says what curl was asked', async (t) => {
  const lastModified = 'Tue, 01 Sep 2026 12:00:00 GMT'
  const { curl, calls } = fakeCurl(({ url, fields }) => url === MISSING
    ? { status: 404 }
    : Object.keys(fields).length > 0
      ? { status: 304, headers: { ETag: '"t"' } }
      : { status: 200, headers: { ETag: '"t"', 'Last-Modified': lastModified }, body: 'xx' })
  const { checks } = await checkConditionalGet(URL, { curl, missingUrl: MISSING })
  t.equal(checks.length, CHECKS.length)
  // The first 200, a plain GET of the missing resource, then one curl a check.
  t.equal(calls.length, CHECKS.length - 2 + 1 + 1, 'one request a check that sends one, the probe of the missing resource, the first GET')
  const older = checks.find((check) => check.name === NAMES.precedenceMatchHead)
  t.equal(older.sent, 'HEAD with If-None-Match: "t" and If-Modified-Since: Mon, 31 Aug 2026 12:00:00 GMT')
  t.ok(calls.some((args) => args.includes('--head') && args.includes('If-Modified-Since: Mon, 31 Aug 2026 12:00:00 GMT')), 'and curl was asked exactly that')
  t.equal(checks.find((check) => check.name === NAMES.starMissing).sent, `GET ${MISSING} with If-None-Match: *`)
  t.equal(checks.find((check) => check.name === NAMES.mismatch).outcome, 'fail', 'a 304 where the tag does not match fails')
})

t.test('a malformed tag and a Last-Modified that is no date: those checks skipped, saying why', async (t) => {
  const { curl } = fakeCurl(({ url }) => url === MISSING ? { status: 200 } : { status: 200, headers: { ETag: 'abc', 'Last-Modified': 'yesterday' }, body: 'x' })
  const { checks } = await checkConditionalGet(URL, { curl, missingUrl: MISSING })
  const by = Object.fromEntries(checks.map((check) => [check.name, check]))
  t.equal(by[NAMES.syntax].outcome, 'fail')
  t.same(by[NAMES.strength], { name: NAMES.strength, outcome: 'skip', sent: '', received: '', broken: [], note: 'abc is not an entity-tag, so it has no other strength' })
  t.match(by[NAMES.starMissing].note, /^GET http:\/\/stub\.invalid\/seed\/missing answered 200, no content, not 404/)
  t.equal(by[NAMES.modifiedSince].outcome, 'fail', 'If-Modified-Since is still sent with the date as it is')
  t.equal(by[NAMES.precedenceMatch].note, "the 200's Last-Modified, yesterday, is not an HTTP date: no date before it to send")
  t.equal(by[NAMES.precedenceMismatch].sent, 'GET with If-None-Match: "checker-mismatch" and If-Modified-Since: yesterday', 'the tag that does not match is sent with the date as it is')
})

t.test('a tag only on the second GET is noted; none at all, or no 200, cannot be checked', async (t) => {
  let gets = 0
  const second = fakeCurl(() => ++gets === 1 ? { status: 200, body: 'x' } : { status: 200, headers: { ETag: '"t"' }, body: 'x' })
  const { checks } = await checkConditionalGet(URL, { curl: second.curl, missingUrl: MISSING })
  t.equal(checks[0].note, 'the first 200 had no ETag; the second had one')
  t.notOk('note' in checks[1], 'only the first check carries the note')
  const untagged = fakeCurl(() => ({ status: 200, body: 'x' }))
  const error = await checkConditionalGet(URL, { curl: untagged.curl }).catch((err) => err)
  t.ok(error instanceof CannotCheckError, `a CannotCheckError: ${error.message}`)
  t.equal(untagged.calls.length, 2, 'asked twice before giving up')
  const failing = fakeCurl(() => ({ status: 500 }))
  await t.rejects(checkConditionalGet(URL, { curl: failing.curl }), { message: `GET ${URL} answered 500, no content: conditional GET needs a 200 with an ETag to start from` })
  t.equal(failing.calls.length, 1)
})
