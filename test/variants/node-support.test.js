'use strict'

// A server started on a Node that package.json's `engines` does not name
// says so in its first line, on stderr, and starts anyway.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { once } = require('node:events')
const { satisfies, unsupportedNodeLine } = require('../../core/node-support')
const { engines } = require('../../package.json')
const { request } = require('../client')
const { spawnServer } = require('../../tooling/spawn-server')

const nvmrc = fs.readFileSync(path.join(__dirname, '..', '..', '.nvmrc'), 'utf8').trim()

t.test('satisfies reads the forms engines uses', async (t) => {
  const range = '^22.19.0 || ^24.0.0 || ^26.0.0'
  t.equal(satisfies('24.21.0', range), true)
  t.equal(satisfies('22.19.0', range), true)
  t.equal(satisfies('22.18.9', range), false, 'an older 22')
  t.equal(satisfies('20.20.2', range), false)
  t.equal(satisfies('23.0.0', range), false, 'an odd line between two named ones')
  t.equal(satisfies('27.0.0', range), false)
  t.equal(satisfies('27.1.0', '>=22.0.0'), true)
  t.equal(satisfies('24.0.0', '~24.0.0'), null, 'another form: not judged')
})

t.test("this package.json's engines is read, and names the Node running the tests", async (t) => {
  t.equal(satisfies(process.versions.node, engines.node), true)
  t.equal(unsupportedNodeLine('fixed'), null, 'nothing to say on this Node')
  t.equal(unsupportedNodeLine('fixed', '20.20.2', null), null, 'no engines (a copy of core/ without package.json): nothing')
  t.equal(unsupportedNodeLine('fixed', '20.20.2'),
    `fixed: Node 20.20.2 is not one this project supports (package.json's engines: ${engines.node}); starting anyway. Use Node ${nvmrc}, as .nvmrc says (README, "Start here").`)
  t.equal(nvmrc, String(Number(nvmrc)), `.nvmrc holds a line's number (${nvmrc})`)
})

// The machine's own Node, where it is one engines does not name (Node 20 on
// this project's machines): `node fixed` as a participant's second terminal
// runs it.
const SYSTEM_NODE = ['/usr/bin/node', '/usr/local/bin/node'].find((file) => fs.existsSync(file))
const systemVersion = SYSTEM_NODE && spawnSync(SYSTEM_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
const skip = !SYSTEM_NODE
  ? 'no system Node outside the PATH line'
  : satisfies(systemVersion, engines.node)
    ? `the system Node (${systemVersion}) is a supported one`
    : false

// Where it listens comes over the start-up handshake, as for every server
// the tools start (tooling/probe.js's { type: 'listening' } on the IPC
// channel), not from the line it prints; its stdout is not read, so that
// what it printed is its stderr alone. NODE_OPTIONS emptied: the tap
// runner's loader is not for this Node.
t.test(`node fixed on the system's Node ${systemVersion || ''} says so first, and serves`, { skip }, async (t) => {
  const server = await spawnServer('fixed', { node: SYSTEM_NODE, stdout: 'ignore', env: { NODE_OPTIONS: '' } })
  t.teardown(server.stop)
  // Written before it listens, the line comes on a pipe of its own: it may
  // still be on its way.
  while (!server.output().includes('\n')) await once(server.child.stderr, 'data')
  t.equal(server.output().split('\n')[0], unsupportedNodeLine('fixed', systemVersion), 'the first line on stderr')
  t.equal((await request(server.url)).status, 200, 'and it serves')
})
