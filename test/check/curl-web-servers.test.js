'use strict'

// `npm run check:curl` against web servers nobody here wrote, as a user
// would point it at one: each serves a 10 KB JSON file with its default
// ETag and Last-Modified and a Cache-Control field (Debian's packages,
// started by fixtures/web-servers.js; docs/conditional-get.md has the
// versions). lighttpd and Caddy pass every check; Apache and nginx fail
// If-None-Match's precedence, h2o its three faults, and nothing else.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { CHECKS, PRECEDENCE_MATCH, curlMissing, checkJson, brokenBy, expected } = require('./curl-helper')
const { webServerMissing, startWebServer, BODY } = require('./fixtures/web-servers')
const { request } = require('../client')

// Six servers started and checked: 4 to 7 s on an idle machine; 35 s on
// two cores beside other suites (load 7), over tap's 30 s.
t.setTimeout(90000)

// Apache and nginx send 304 only when both conditions hold, so a matching
// tag with an older date gets the full 200; h2o compares strongly, and has
// no lists and no *.
const WEB_SERVER_FAILURES = {
  apache2: PRECEDENCE_MATCH,
  nginx: PRECEDENCE_MATCH,
  lighttpd: [],
  caddy: [],
  h2o: [CHECKS.strength, CHECKS.list, CHECKS.star]
}

for (const [name, failing] of Object.entries(WEB_SERVER_FAILURES)) {
  const verdict = failing.length === 0 ? 'passes every check, none skipped' : `fails exactly ${failing.length} checks`
  t.test(`${name} serving a file ${verdict}`, { skip: curlMissing || webServerMissing(name) }, async (t) => {
    const server = await startWebServer(name)
    t.teardown(server.stop)
    const { code, outcomes, checks } = await checkJson(server.url)
    t.equal(code, failing.length === 0 ? 0 : 1, `exit ${failing.length === 0 ? 0 : 1}`)
    t.same(outcomes, expected({ failing }))
    if (failing.includes(CHECKS.precedenceMatch)) {
      for (const check of PRECEDENCE_MATCH) {
        t.match(brokenBy(checks, check), [/^§13\.1\.3, §13\.2\.2: a recipient MUST ignore If-Modified-Since/], `${check}: the rule is named`)
        t.match(checks.find((s) => s.name === check).received, /^200, /, `${check}: the 200 is shown`)
      }
    }
  })
}

// As on a Mac: a TMPDIR only its owner may enter (mktemp -d's, or macOS's
// under /var/folders), reached through a link (/var is one to /private/var).
// A server the tests start as root serves as an unprivileged user, which
// could not reach its file there: 403 for it, until the fixture put the
// servers' folders where that user may enter.
t.test('nginx serves its file with TMPDIR private and reached through a link', { skip: webServerMissing('nginx') }, async (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'private-tmp-'))
  t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
  fs.mkdirSync(path.join(scratch, 'real'), { mode: 0o700 })
  fs.symlinkSync(path.join(scratch, 'real'), path.join(scratch, 'tmp'))
  const tmpdir = process.env.TMPDIR
  t.teardown(() => { if (tmpdir === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = tmpdir })
  process.env.TMPDIR = path.join(scratch, 'tmp')
  const server = await startWebServer('nginx')
  t.teardown(server.stop)
  const response = await request(server.url)
  t.equal(response.status, 200, `GET ${server.url}: ${response.status}`)
  t.equal(response.body, BODY, 'the whole file')
})
