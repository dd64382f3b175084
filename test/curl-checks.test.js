'use strict'

// `npm run check:curl` with the real curl: fixed passes every step; slow
// and fast are reported for what they lack, without crashing the script.

const t = require('tap')
const path = require('node:path')
const { spawnSync, execFile } = require('node:child_process')
const { spawnVariant } = require('./helper')

const SCRIPT = path.join(__dirname, '..', 'util', 'curl-checks.js')
const curlMissing = spawnSync('curl', ['--version']).error ? 'curl is not installed here' : false

function checkCurl (url) {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...(url ? [url] : [])], { encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, stdout, stderr })
    })
  })
}

t.test('fixed: every step passes', { skip: curlMissing }, async (t) => {
  const { url } = await spawnVariant(t, 'fixed')
  const { code, stdout } = await checkCurl(url)
  t.equal(code, 0, stdout)
  const lines = stdout.split('\n').filter((line) => /^(PASS|FAIL)/.test(line))
  t.equal(lines.length, 8, 'eight steps')
  t.ok(lines.every((line) => line.startsWith('PASS')), 'all PASS')
  t.match(stdout, /PASS {2}If-None-Match weak \(W\/"[^"]+"\) answers 304/)
  t.match(stdout, /PASS {2}HEAD with If-None-Match answers 304/)
  t.match(stdout, /all 8 steps passed/)
})

t.test('without a URL it starts fixed itself, and stops it', { skip: curlMissing }, async (t) => {
  const { code, stdout } = await checkCurl()
  t.equal(code, 0, stdout)
  t.match(stdout, /\(node fixed, started for this run\)/)
})

for (const variant of ['slow', 'fast']) {
  t.test(`${variant}: reported plainly as lacking 304s`, { skip: curlMissing }, async (t) => {
    const { url } = await spawnVariant(t, variant)
    const { code, stdout, stderr } = await checkCurl(url)
    t.equal(code, 1, 'exit 1: steps failed')
    t.equal(stderr, '', 'no crash')
    t.match(stdout, /FAIL {2}the ETag is a quoted entity-tag: [0-9a-f]{128} has no quotes/)
    t.match(stdout, /FAIL {2}If-None-Match exact .* answers 304: status 200: If-None-Match is not answered/)
    t.match(stdout, /FAIL {2}HEAD answers 200 like GET, without a body: 405/)
    t.match(stdout, /PASS {2}If-None-Match "other" answers the full 200/)
  })
}

t.test('an unreachable server exits 2 with a message', { skip: curlMissing }, async (t) => {
  const { code, stderr } = await checkCurl('http://127.0.0.1:9/seed/v1')
  t.equal(code, 2)
  t.match(stderr, /curl failed \(exit 7\): is the server at http:\/\/127\.0\.0\.1:9\/seed\/v1 up\?/)
})
