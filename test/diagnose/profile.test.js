'use strict'

// `npm run profile`: reading a .cpuprofile (diagnose/cpu-profile.js) on a
// profile made up for the purpose (fixtures/slow-made-up.cpuprofile: each
// count chosen, so that each rule below is one number), the flame graph's
// page, and the command itself: a real run on slow, its page in headless
// Chromium with the network cut, bad arguments, a server with no 2xx.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { spawn } = require('node:child_process')
const { pathToFileURL } = require('node:url')
const { ROOT } = require('../../tooling/repo')
const { runCommand } = require('../../tooling/command')
const { parseCpuProfile, hottestFrames, ownFramesByTotal, callTree } = require('../../diagnose/cpu-profile')
const { flameGraphPage, libraryScripts } = require('../../diagnose/flame-graph-page')
const { profile, fileBase, command } = require('../../diagnose/profile')
const { capture } = require('../capture')
const { readText } = require('../read-text')
const { readmeOutput, unmatchedLine } = require('../readme-output')
const { oneLineFixCopy } = require('../workshop/copies')
const { noChromium, launchBrowser, openOffline } = require('../browser')

// A server under --cpu-prof with 300 requests of load (slow's listeners pile
// up: its time grows with the square of the count), then Chromium: 10 to 20 s.
t.setTimeout(2 * 60 * 1000)

// The fixture names its files as in a checkout at /home/participant/seed; moved to this
// one, its slow/etag.js is this repo's.
const FIXTURE = readText(path.join(__dirname, 'fixtures', 'slow-made-up.cpuprofile'))
  .replaceAll('file:///home/participant/seed/', pathToFileURL(ROOT).href.replace(/\/?$/, '/'))
const made = () => parseCpuProfile(FIXTURE)
// Its samples: 84 counted and 10 (idle).
const share = (samples) => samples / 84

t.test('a .cpuprofile is read, and anything else refused with a reason', async (t) => {
  t.equal(made().samples.length, 94)
  t.throws(() => parseCpuProfile('{"nodes":[]}'), /not a CPU profile: no nodes/)
  t.throws(() => parseCpuProfile('{"nodes":[{"id":1,"callFrame":{}}]}'), /not a CPU profile: no samples/)
  t.throws(() => parseCpuProfile('<html>'), SyntaxError)
  const empty = parseCpuProfile('{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[]}')
  t.same(hottestFrames(empty), { frames: [], ownShare: 0, idleShare: 0, samples: 0 }, 'a profile with no sample: no shares')
  t.same(ownFramesByTotal(empty), [])
  t.match(callTree(empty), { functionName: '(root)', value: 0, children: [] })
})

t.test('the hottest frames by self time, a function\'s nodes counted together', async (t) => {
  const { frames, ownShare, idleShare, samples } = hottestFrames(made(), { top: 20 })
  t.same(frames.slice(0, 7), [
    // Two nodes (two callers), one row; Node's function, and the listener
    // its time comes from.
    { functionName: 'update', location: 'node:internal/crypto/hash:179', share: share(42), own: false, from: 'slow/etag.js:25' },
    // The listener's three nodes (one under another scriptId); its line
    // counted from 1, as an editor counts it.
    { functionName: '(anonymous)', location: 'slow/etag.js:25', share: share(16), own: true },
    // V8's own nodes are rows, (idle) aside.
    { functionName: '(garbage collector)', location: '[V8]', share: share(7), own: false },
    { functionName: 'digest', location: 'node:internal/crypto/hash:197', share: share(6), own: false, from: 'slow/etag.js:25' },
    { functionName: 'render', location: 'core/render.js:10', share: share(5), own: true },
    { functionName: '(program)', location: '[V8]', share: share(3), own: false },
    // A library is in the repo but not its own code, and here no code of
    // ours is below it on the stack.
    { functionName: 'nextTick', location: 'node_modules/restify/lib/chain.js:144', share: share(2), own: false }
  ])
  t.match(frames.find((frame) => frame.functionName === 'hexSlice'), { location: '[native]', from: 'core/render.js:10' }, 'a native function with no script')
  t.notOk(frames.some((frame) => frame.functionName === '(idle)'), '(idle) is no row')
  t.equal(samples, 84, 'every sample counted but the idle ones')
  t.equal(idleShare, 10 / 94, 'the idle ones a share of all')
  t.equal(ownShare, share(16 + 5), "this repo's functions together")
  t.equal(hottestFrames(made(), { top: 3 }).frames.length, 3, '`top` rows')
})

t.test("Node's internal modules folded into the function below them", async (t) => {
  const { frames, ownShare, samples } = hottestFrames(made(), { top: 20, foldInternals: true })
  // update's 42 and digest's 6 (node:internal/crypto/hash) are the listener's.
  t.same(frames[0], { functionName: '(anonymous)', location: 'slow/etag.js:25', share: share(16 + 42 + 6), own: true })
  t.notOk(frames.some((frame) => frame.location.startsWith('node:internal/crypto/')), 'the hash\'s functions are gone')
  // With nothing but (root) below it, an internal function stays itself.
  t.match(frames.find((frame) => frame.location.startsWith('node:internal/')), { functionName: 'processTicksAndRejections' })
  t.equal(samples, 84, 'the same samples, counted elsewhere')
  t.equal(ownShare, share(16 + 42 + 6 + 5))
})

t.test("this repo's functions by time on the stack, a recursion counted once", async (t) => {
  t.same(ownFramesByTotal(made()), [
    { functionName: '(anonymous)', location: 'slow/etag.js:25', share: share(64), own: true },
    // render -> render -> hexSlice: 6 samples on its stack, not 6 + 4.
    { functionName: 'render', location: 'core/render.js:10', share: share(6), own: true }
  ])
})

t.test('outside the repository nothing is its own, and paths are shown whole', async (t) => {
  const elsewhere = path.join(ROOT, 'test', 'diagnose', 'fixtures', 'clinic')
  const { frames, ownShare } = hottestFrames(made(), { root: elsewhere })
  t.equal(ownShare, 0)
  t.equal(frames[1].location, `${path.join(ROOT, 'slow', 'etag.js')}:25`)
  t.same(ownFramesByTotal(made(), { root: elsewhere }), [])
})

t.test('the call tree a flame graph draws: merged by function under each caller, (idle) left out', async (t) => {
  const tree = callTree(made())
  const shape = ({ functionName, value, children }) => [functionName, value, ...children.map(shape)]
  t.same(shape(tree), ['(root)', 84,
    ['(program)', 3],
    ['(garbage collector)', 7],
    ['processTicksAndRejections', 68,
      // The listener's two nodes under emit, one box; their digests, one.
      ['emit', 47, ['(anonymous)', 46, ['update', 30], ['digest', 6]]],
      ['nextTick', 20, ['(anonymous)', 18, ['update', 12]]]],
    ['render', 6, ['render', 4, ['hexSlice', 1]]]])
  t.match(tree.children[2].children[0].children[0], { location: 'slow/etag.js:25', own: true })
})

t.test('the page: the library and its d3 modules written in, each after what it needs', async (t) => {
  const scripts = libraryScripts()
  const names = scripts.map((script) => script.name)
  t.equal(names.at(-1), 'd3-flame-graph', 'the library last')
  t.equal(new Set(names).size, names.length, 'each package once')
  for (const script of scripts) {
    const manifest = JSON.parse(fs.readFileSync(path.join(script.file, '..', '..', 'package.json'), 'utf8'))
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      t.ok(names.indexOf(dependency) < names.indexOf(script.name), `${dependency} before ${script.name}`)
    }
  }
  const page = flameGraphPage({ title: 'A </script> & <b>', about: ['one line'], tree: callTree(made()), scripts })
  t.notMatch(page, /<(?:script|link|img)[^>]+(?:src|href)=/i, 'nothing loaded from elsewhere')
  t.match(page, '<title>A &lt;/script&gt; &amp; &lt;b&gt;</title>', 'the title escaped')
  t.equal(page.match(/<\/script>/g).length, scripts.length + 1, 'no script closed early')
})

t.test('file names: the server\'s, the time and the process, so that runs do not overwrite each other', async (t) => {
  const at = new Date(2026, 10, 27, 11, 30, 2)
  t.equal(fileBase('slow', at, 4242), 'slow.20261127.113002.4242')
  t.equal(fileBase('stories/crypto/slow.js', at, 4242), 'stories-crypto-slow.20261127.113002.4242')
  t.equal(fileBase('C:\\work\\my copy', at, 7), 'C-work-my-copy.20261127.113002.7')
})

t.test('bad arguments: exit 2 with a message, before anything starts', async (t) => {
  for (const [argv, message] of [
    [[], /^profile: name a server/],
    [['slow', 'fast'], /^profile: one server at a time/],
    [['no-such-server'], /^profile: no file or folder at .*no-such-server/],
    [['slow', '--duration', '1', '--requests', '5'], /^profile: give --duration or --requests, not both/],
    [['slow', '--connections', '0'], /^profile: --connections must be an integer >= 1, got "0"/],
    [['slow', '--rounds', '3'], /^profile: Unknown option '--rounds'/]
  ]) {
    const stdout = capture()
    const stderr = capture()
    t.equal(await runCommand(command, argv, { stdout, stderr }), 2, argv.join(' '))
    t.match(stderr.text(), message)
    t.equal(stdout.text(), '')
  }
})

t.test('a server that answers no 2xx: exit 1, and no profile left', async (t) => {
  const run = await profileCommand([path.join(__dirname, 'fixtures', 'answers-503.js'), '--duration', '1'])
  t.equal(run.code, 1, run.stdout)
  t.match(run.stderr, /^profile: the load got no 2xx response from .*answers-503\.js \(\d+ responses, \d+ not 2xx/)
  const left = fs.readdirSync(path.join(ROOT, '.profile')).filter((file) => file.includes(`.${run.pid}.`))
  t.same(left, [], 'nothing of this run in .profile/')
})

t.test("profile slow: the after listener's time on top, and a flame graph that draws it offline", async (t) => {
  const run = await profileCommand(['slow', '--requests', '300'])
  const cpuprofile = /^Profile: +(.+)$/m.exec(run.stdout)?.[1]
  const html = /^Flame graph: +(.+)$/m.exec(run.stdout)?.[1]
  t.teardown(() => [cpuprofile, html].filter(Boolean).forEach((file) => fs.rmSync(path.resolve(ROOT, file), { force: true })))
  t.equal(run.code, 0, run.stderr)
  // By self time, Node's internal modules folded into their callers as
  // Flame folds C++ (the hash's update, which V8 shows apart from the
  // listener it is inlined into on Node 24 and 26), the listener on top.
  const hottest = /^Hottest frames by self time[^]*?\n +([\d.]+) % {2}(\S+) {2}(\S+) {3}<- this repo$/m.exec(run.stdout)
  t.ok(hottest, `the hottest frames are printed, this repo's on top:\n${run.stdout}`)
  const [, share, name, location] = hottest
  t.ok(isAfterListener(location), `the hottest frame is the after listener: ${name} ${location}`)
  t.ok(Number(share) > 30, `with a large share of the samples (${share} %)`)
  const ours = /This repo's functions by time on the stack[^\n]*\n +([\d.]+) % {2}\S+ {2}(\S+)/.exec(run.stdout)
  t.ok(ours && isAfterListener(ours[2]) && Number(ours[1]) > 50, `this repo's busiest function, on the stack: the listener (${ours?.[1]} % ${ours?.[2]})`)
  t.ok(parseCpuProfile(fs.readFileSync(path.resolve(ROOT, cpuprofile), 'utf8')).samples.length > 100, `${cpuprofile} is a CPU profile`)
  t.equal(unmatchedLine(readmeOutput('3', 'npm run profile'), run.stdout), null, `README step 3 shows this output by shape:\n${run.stdout}`)

  t.test('the flame graph in headless Chromium, offline: no error, the listener drawn', { skip: noChromium }, async (t) => {
    const browser = await launchBrowser(t)
    const { page, refused, errors } = await openOffline(browser, path.resolve(ROOT, html))
    t.same(errors, [], 'no console error')
    t.same(refused, [], 'no request left the page')
    // Each box a <g> as wide as its samples, its name written into it as
    // text once the library's opening transition is over.
    const name = `(anonymous) ${ours[2]}`
    await page.waitForFunction((name) => [...document.querySelectorAll('#chart .d3-flame-graph-label')].some((label) => label.textContent === name), { timeout: 10000 }, name)
    const drawn = await page.$$eval('#chart svg g', (boxes) => boxes.map((box) => ({
      name: box.querySelector('.d3-flame-graph-label')?.textContent,
      width: Number(box.getAttribute('width'))
    })))
    const all = drawn.find((box) => box.name === 'all')
    const listener = drawn.filter((box) => box.name === name)
    const width = listener.reduce((sum, box) => sum + box.width, 0)
    t.ok(all?.width > 500, `the root drawn across the page (${all?.width} px)`)
    t.ok(width > all.width * 0.3, `the listener drawn by name, ${listener.length} box(es) ${Math.round(width)} px wide`)
  })
})

// A participant's copy, named by its path, as any server is: its own
// listener among this repo's functions.
t.test('a workshop copy with the one-line fix, by its path: its own listener', async (t) => {
  const copy = oneLineFixCopy(t, 'profile-copy')
  const result = await profile({ entry: copy, name: path.basename(copy) }, { duration: 1, dir: t.testdir() })
  t.equal(result.code, 0, result.error)
  const ours = result.ownByTotal.map((frame) => frame.location)
  t.ok(ours.some((location) => location.startsWith(`${path.basename(copy)}/etag.js:`)), `the copy's etag.js among this repo's functions: ${ours.join(', ')}`)
})

// Whether `location` (slow/etag.js:25) is the line that adds slow's after
// listener.
function isAfterListener (location) {
  const [file, line] = location.split(':')
  return file === 'slow/etag.js' && /server\.on\('after'/.test(readText(path.join(ROOT, file)).split('\n')[Number(line) - 1])
}

// The command as a user runs it, from the repo's root: { code, stdout,
// stderr, pid }.
function profileCommand (args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'diagnose', 'profile.js'), ...args], { cwd: ROOT })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk) => { stderr += chunk })
    child.once('close', (code) => resolve({ code, stdout, stderr, pid: child.pid }))
  })
}
