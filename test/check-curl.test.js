'use strict'

// `npm run check:curl` with the real curl against real servers: the ones
// that follow RFC 9110 pass (fixed, express 5, nginx), the ones that do not
// fail on exactly the steps where they break it, and nothing crashes.

const t = require('tap')
const fs = require('node:fs')
const http = require('node:http')
const net = require('node:net')
const os = require('node:os')
const path = require('node:path')
const { spawn, spawnSync, execFile } = require('node:child_process')
const { startChildProcess } = require('./helper')
const { urlOf } = require('../core/launch')
const { spawnServer } = require('../tooling/spawn-server')
const servers = require('./fixtures/conditional-get-servers')
const { SEED_PATH } = require('../core/seed-contract')

const COMMAND = path.join(__dirname, '..', 'check')
const curlMissing = spawnSync('curl', ['--version']).error ? 'curl is not installed here' : false
const STEPS = {
  first: 'GET answers 200 with an ETag',
  syntax: 'the ETag is an entity-tag',
  exact: 'If-None-Match with the exact tag',
  strength: 'If-None-Match with the tag in its other strength',
  list: 'If-None-Match with the tag inside a list',
  star: 'If-None-Match: *',
  mismatch: 'If-None-Match with a tag that does not match',
  head: 'HEAD is answered like GET, without content',
  conditionalHead: 'HEAD with If-None-Match with the exact tag',
  modifiedSince: 'If-Modified-Since with the Last-Modified date',
  precedence: 'If-None-Match takes precedence over If-Modified-Since'
}
const NOT_MODIFIED_STEPS = [STEPS.exact, STEPS.strength, STEPS.list, STEPS.star, STEPS.conditionalHead]
const WITHOUT_LAST_MODIFIED = [STEPS.modifiedSince, STEPS.precedence]

function checkCurl (...args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [COMMAND, ...args], { encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, stdout, stderr })
    })
  })
}

// Run the checker with --json against `url`: { code, stderr, outcomes: {
// step name: 'pass' | 'fail' | 'skip' }, steps }.
async function checkJson (url) {
  const { code, stdout, stderr } = await checkCurl('--json', url)
  if (code === 2) throw new Error(`check:curl could not check ${url}: ${stderr}`)
  const report = JSON.parse(stdout)
  return { code, stderr, steps: report.steps, outcomes: Object.fromEntries(report.steps.map((s) => [s.name, s.outcome])) }
}

// The outcomes every step must have: `failing` fail, `skipped` skip, the rest pass.
function expected ({ failing = [], skipped = [] }) {
  return Object.fromEntries(Object.values(STEPS).map((name) =>
    [name, failing.includes(name) ? 'fail' : skipped.includes(name) ? 'skip' : 'pass']))
}

async function listen (t, server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    (server.server || server).closeAllConnections()
    server.close(resolve)
  }))
  return urlOf(server) + `${SEED_PATH}`
}

t.test('fixed passes every step; the If-Modified-Since steps are skipped, not passed', { skip: curlMissing }, async (t) => {
  const { url } = await startChildProcess(t, 'fixed')
  const { code, outcomes } = await checkJson(url)
  t.equal(code, 0, 'exit 0')
  t.same(outcomes, expected({ skipped: WITHOUT_LAST_MODIFIED }))

  t.test('the lines a person reads: PASS, FAIL or SKIP, what was sent and what came back', async (t) => {
    const { code, stdout } = await checkCurl(url)
    t.equal(code, 0, stdout)
    t.match(stdout, /^PASS {2}If-None-Match with the tag in its other strength\n {6}sent GET with If-None-Match: W\/"[^"]+"; got 304, ETag: "[^"]+", Cache-Control: public, max-age=120, no content$/m)
    t.match(stdout, /^SKIP {2}If-Modified-Since with the Last-Modified date\n {6}\(the 200 has no Last-Modified: nothing to check If-Modified-Since against\)$/m)
    t.match(stdout, /\n9 passed, 0 failed, 2 skipped\n$/)
  })
})

t.test('without a URL it starts fixed itself, and stops it', { skip: curlMissing }, async (t) => {
  const { code, stdout } = await checkCurl()
  t.equal(code, 0, stdout)
  t.match(stdout, /\(node fixed, started for this run\)/)
})

t.test('express 5 (weak ETags, fresh) passes', { skip: curlMissing }, async (t) => {
  const url = await listen(t, servers.createExpressServer())
  const { code, outcomes, steps } = await checkJson(url)
  t.equal(code, 0, 'exit 0')
  t.same(outcomes, expected({ skipped: WITHOUT_LAST_MODIFIED }))
  t.match(steps.find((s) => s.name === STEPS.strength).sent, /If-None-Match: "[^"]+"$/, 'the weak tag is sent strong, not as W/W/')
})

const nginx = spawnSync('nginx', ['-v']).error ? 'nginx is not installed here (apt-get install nginx-light)' : false

t.test('nginx serving a file passes, If-Modified-Since included', { skip: curlMissing || nginx }, async (t) => {
  const url = await startNginx(t)
  const { code, outcomes } = await checkJson(url)
  t.equal(code, 0, 'exit 0')
  t.same(outcomes, expected({}), 'every step passes, none skipped')
})

t.test('fastify with @fastify/etag fails on a list and on *', { skip: curlMissing }, async (t) => {
  // @fastify/etag compares the whole If-None-Match header with its tag.
  const server = await spawnServer('bench/references/fastify.js')
  t.teardown(server.stop)
  const { code, outcomes, steps } = await checkJson(server.url)
  t.equal(code, 1, 'exit 1')
  t.same(outcomes, expected({ failing: [STEPS.list, STEPS.star], skipped: WITHOUT_LAST_MODIFIED }))
  t.match(steps.find((s) => s.name === STEPS.star).broken, [/^§13\.1\.2: If-None-Match: \* is false whenever/])
})

t.test("restify's conditionalRequest fails the exact quoted tag, and HEAD", { skip: curlMissing }, async (t) => {
  // It unquotes the client's tag when it is made of word characters only,
  // then compares it with the ETag as the route set it, quotes and all.
  const url = await listen(t, servers.createRestifyConditionalServer())
  const { code, outcomes } = await checkJson(url)
  t.equal(code, 1, 'exit 1')
  t.same(outcomes, expected({
    failing: [STEPS.exact, STEPS.strength, STEPS.list, STEPS.head, STEPS.conditionalHead],
    skipped: WITHOUT_LAST_MODIFIED
  }))
})

const FAILING_STEPS = {
  'ignores If-None-Match': NOT_MODIFIED_STEPS,
  'compares strongly': [STEPS.strength],
  'no *': [STEPS.star],
  'no lists': [STEPS.list],
  'drops the ETag from the 304': NOT_MODIFIED_STEPS,
  'drops Cache-Control from the 304': NOT_MODIFIED_STEPS,
  'HEAD answers 405': [STEPS.head, STEPS.conditionalHead]
}
const NAMED_IN_THE_FAILURE = {
  'ignores If-None-Match': /^§13\.1\.2: when a listed entity-tag matches/,
  'compares strongly': /^§8\.8\.3\.2: If-None-Match uses the weak comparison/,
  'no *': /^§13\.1\.2: If-None-Match: \* is false/,
  'no lists': /^§13\.1\.2: when a listed entity-tag matches/,
  'drops the ETag from the 304': /^§15\.4\.5: .*\(this 304: no etag\)$/,
  'drops Cache-Control from the 304': /^§15\.4\.5: .*\(this 304: no cache-control\)$/,
  'HEAD answers 405': /^§9\.3\.2: .*\(this HEAD: status 405 where GET had 200/
}

t.test('a server with one fault fails where it breaks the rule, naming the rule', { skip: curlMissing }, async (t) => {
  t.same(Object.keys(FAILING_STEPS), Object.keys(servers.FAULTS), 'every fault is tried')
  const correct = await checkJson(await listen(t, servers.createConditionalServer()))
  t.same(correct.outcomes, expected({ skipped: WITHOUT_LAST_MODIFIED }), 'without a fault it passes')
  for (const [fault, failing] of Object.entries(FAILING_STEPS)) {
    const { code, outcomes, steps } = await checkJson(await listen(t, servers.createConditionalServer(fault)))
    t.equal(code, 1, `${fault}: exit 1`)
    t.same(outcomes, expected({ failing, skipped: WITHOUT_LAST_MODIFIED }), `${fault}: fails ${failing.length} step(s)`)
    t.match(steps.find((s) => s.name === failing[0]).broken, [NAMED_IN_THE_FAILURE[fault]], `${fault}: the rule is named`)
  }
})

for (const variant of ['slow', 'fast']) {
  t.test(`${variant}: reported for what it lacks, without a crash`, { skip: curlMissing }, async (t) => {
    const { url } = await startChildProcess(t, variant)
    const { code, stderr, outcomes, steps } = await checkJson(url)
    t.equal(code, 1, 'exit 1')
    t.equal(stderr, '', 'no crash')
    t.same(outcomes, expected({
      failing: [STEPS.syntax, STEPS.exact, STEPS.list, STEPS.star, STEPS.head, STEPS.conditionalHead],
      skipped: [STEPS.strength, ...WITHOUT_LAST_MODIFIED]
    }))
    t.match(steps[0].note, /the first 200 had no ETag; the second had one/)
    t.match(steps.find((s) => s.name === STEPS.syntax).broken, [/^§8\.8\.3: an entity-tag is a quoted opaque string/])
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
})

// nginx serving one static file from a temporary prefix on a free port,
// started for the test and stopped in teardown.
async function startNginx (t) {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-'))
  // Started as root, nginx serves from worker processes running as nobody,
  // who must be able to read the file (mkdtemp makes the folder private).
  fs.chmodSync(prefix, 0o755)
  fs.mkdirSync(path.join(prefix, 'html', 'seed'), { recursive: true })
  fs.writeFileSync(path.join(prefix, 'html', 'seed', 'v1'), JSON.stringify({ hello: 'conditional GET' }))
  const port = await freePort()
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), `
daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/tmp;
  proxy_temp_path ${prefix}/tmp;
  fastcgi_temp_path ${prefix}/tmp;
  uwsgi_temp_path ${prefix}/tmp;
  scgi_temp_path ${prefix}/tmp;
  server {
    listen 127.0.0.1:${port};
    root ${prefix}/html;
    default_type application/json;
  }
}
`)
  const child = spawn('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { stdio: 'ignore' })
  t.teardown(() => new Promise((resolve) => {
    child.once('exit', () => { fs.rmSync(prefix, { recursive: true, force: true }); resolve() })
    child.kill('SIGQUIT')
  }))
  const url = `http://127.0.0.1:${port}${SEED_PATH}`
  await waitUntilListening(port)
  return url
}

function freePort () {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

async function waitUntilListening (port, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true) })
      socket.on('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`nginx did not listen on port ${port} within ${timeoutMs} ms`)
}
