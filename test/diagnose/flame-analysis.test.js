'use strict'

// Reading Flame's findings (diagnose/clinic-analysis.js) from the data
// folder recorded on slow and committed (test/diagnose/fixtures/clinic/,
// made by record.js there), as clinic-analysis.test.js reads Doctor's:
// seconds here, where test:clinic takes minutes.

const t = require('tap')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { skipWithoutClinic } = require('../skips')
// Without clinic (an install with --omit=optional), nothing here can run.
const analysis = skipWithoutClinic ? null : require('../../diagnose/clinic-analysis')
const { readText } = require('../read-text')
const { linkFolder, linksMissing } = require('../links')

const FLAME_DATA = path.join(__dirname, 'fixtures', 'clinic', 'slow.clinic-flame')
// Where the Flame run happened: its frames carry that checkout's paths.
const { mainDirectory } = JSON.parse(fs.readFileSync(path.join(FLAME_DATA, 'slow.clinic-flame-systeminfo'), 'utf8'))
const RECORDED_ROOT = path.dirname(mainDirectory)

t.test("Flame's hottest frame on slow is the ETag middleware's after listener", { skip: skipWithoutClinic }, async (t) => {
  const { folded, all, ownShare } = await analysis.readHottestFrames(FLAME_DATA, { root: RECORDED_ROOT })
  const [hottest] = folded
  t.ok(ownShare >= hottest.share, `all of this repo's code holds at least its hottest frame's share: ${ownShare}`)
  t.match(hottest.location, /^slow\/etag\.js:\d+$/, `the hottest frame is in slow/etag.js: ${JSON.stringify(hottest)}`)
  t.equal(hottest.own, true, 'and is this repository\'s code')
  const line = Number(hottest.location.split(':')[1])
  const source = readText(path.join(__dirname, '..', '..', 'slow', 'etag.js')).split('\n')[line - 1]
  t.match(source, /server\.on\('after'/, `the after listener: ${source.trim()}`)
  t.ok(hottest.share > 0.3, `with ${(hottest.share * 100).toFixed(1)} % of the samples`)
  t.equal(folded.length, 8)
  t.equal(all.length, 8)
  t.ok(all.some((frame) => frame.location.startsWith('[')),
    'with V8 and C++ shown, native frames count for themselves')
  t.ok(all[0].share < hottest.share, 'and the after listener keeps less for itself')
})

// macOS's /var is a link to /private/var: a clone there is reached through
// a link, while V8 names each frame's file by its real path. The recorded
// data is moved to a folder of its own, read through a link to it.
t.test("Flame's frames are the repository's with its root given through a link", { skip: skipWithoutClinic || linksMissing }, async (t) => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-analysis-'))
  t.teardown(() => fs.rmSync(scratch, { recursive: true, force: true }))
  const real = path.join(fs.realpathSync.native(scratch), 'clone')
  fs.mkdirSync(real)
  const link = path.join(scratch, 'link')
  linkFolder(real, link)
  const data = path.join(scratch, path.basename(FLAME_DATA))
  fs.mkdirSync(data)
  const inJson = (text) => JSON.stringify(text).slice(1, -1)
  for (const file of fs.readdirSync(FLAME_DATA)) {
    const text = fs.readFileSync(path.join(FLAME_DATA, file), 'utf8')
    fs.writeFileSync(path.join(data, file), text.split(inJson(RECORDED_ROOT)).join(inJson(real)))
  }
  const { folded, ownByTotal } = await analysis.readHottestFrames(data, { root: link })
  t.match(folded[0], { location: /^slow\/etag\.js:\d+$/, own: true }, `the hottest frame is slow/etag.js's: ${JSON.stringify(folded[0])}`)
  t.ok(ownByTotal.length > 0 && ownByTotal.every((frame) => !frame.location.startsWith('..')), 'our own frames, named from the root')
})

// A wait in the profiler's own output, as Flame on fixed showed it on a busy
// machine (ifNoneMatchMatches at 8.4 % of a 2-second profile): the recorded
// profile of slow with 60 samples more, each in write() called while slow's
// route handler (slow/index.js:17) was on top. Flame's default view would
// give them to the handler: a quarter of the profile.
t.test("the profiler's own writes are left out of the default view, not given to the function they interrupted", { skip: skipWithoutClinic }, async (t) => {
  const samples = recordedFlameSamples()
  const inHandler = stackUpTo(samples, / \/.*\/slow\/index\.js:17:\d+$/)
  t.ok(inHandler, 'the recording has a sample through the route handler')
  const waits = Array.from({ length: 60 }, () => [...inHandler, { name: '__write@@GLIBC_2.2.5', type: 'CPP' }])
  // And 30 writes the server makes itself, through fs.writeSync (the logging
  // story's log): those stay with writeSync.
  const writeSync = { name: 'writeSync node:fs:943:19', type: 'JS', kind: 'Opt' }
  const ownWrites = Array.from({ length: 30 }, () => [...inHandler, writeSync, { name: '__write@@GLIBC_2.2.5', type: 'CPP' }])
  const data = flameDataWith(t, [...samples, ...waits, ...ownWrites])
  const { folded, profilerShare, ownShare, all } = await analysis.readHottestFrames(data, { root: RECORDED_ROOT })
  const handler = folded.find((frame) => frame.location === 'slow/index.js:17')
  t.ok(!handler || handler.share < 0.05, `the handler keeps its own samples only: ${JSON.stringify(handler)}`)
  t.equal(folded[0].location, 'slow/etag.js:25', 'the after listener still on top')
  t.ok(ownShare < folded[0].share + 0.1, `nor are they counted as this repo's code: ${ownShare}`)
  t.ok(profilerShare >= 60 / (samples.length + 90) && profilerShare < 0.5, `the writes are counted as left out: ${profilerShare}`)
  const written = folded.find((frame) => frame.functionName === 'writeSync')
  t.ok(written && written.share >= 30 / (samples.length + 90), `the server's own writes stay with fs.writeSync: ${JSON.stringify(written)}`)
  t.match(all.find((frame) => frame.functionName.startsWith('__write')), { location: '[system]' }, 'and shown for themselves with every frame shown')
})

// Node's own C++ as Flame showed it on Node 26 before the tick processor
// could name it (diagnose/tick-processor-symbols.js): the recorded profile
// of slow with 300 samples more, each in code of the node binary that had
// no name, called from the after listener (slow/etag.js:25).
t.test("code the profiler could not name is one [SHARED_LIB] row with its file, and stays its caller's in the default view", { skip: skipWithoutClinic }, async (t) => {
  const samples = recordedFlameSamples()
  const inListener = stackUpTo(samples, / \/.*\/slow\/etag\.js:25:\d+$/)
  const unnamed = Array.from({ length: 300 }, () => [...inListener, { name: '/opt/node-v26.12.1-linux-x64/bin/node', type: 'SHARED_LIB' }])
  const data = flameDataWith(t, [...samples, ...unnamed])
  const { folded, all } = await analysis.readHottestFrames(data, { root: RECORDED_ROOT })
  t.match(all[0], { functionName: '[SHARED_LIB]', own: false })
  t.equal(all[0].location, '/opt/node-v26.12.1-linux-x64/bin/node', 'its file, without a line')
  t.ok(all[0].share >= 300 / (samples.length + 300), `with all of its samples: ${all[0].share}`)
  t.match(folded[0], { location: 'slow/etag.js:25', own: true }, 'the after listener keeps them in the default view')
})

t.test('a data folder with a file missing is a clear error, not a crash', { skip: skipWithoutClinic }, async (t) => {
  const broken = t.testdir({ '1.clinic-doctor': { '1.clinic-doctor-systeminfo': '{}' } })
  await t.rejects(analysis.readDoctorAnalysis(path.join(broken, '1.clinic-doctor')), /1\.clinic-doctor-traceevent is missing/)
  await t.rejects(analysis.readHottestFrames(path.join(broken, '1.clinic-doctor')), /is missing: not a complete clinic data folder/)
})

t.test('a clinic version other than the pinned one is refused by name', { skip: skipWithoutClinic }, async (t) => {
  t.throws(() => analysis.checkPinnedVersions(['@clinic/flame'], { '@clinic/flame': '12.0.0' }),
    /diagnose reads @clinic\/flame's internal modules and knows version 12\.0\.0 only; 13\.0\.0 is installed/)
  t.doesNotThrow(() => analysis.checkPinnedVersions(['@clinic/flame'], { '@clinic/flame': '13.0.0' }))
})

// The recorded Flame run's samples: one stack (a list of frames) each.
function recordedFlameSamples () {
  return JSON.parse(fs.readFileSync(path.join(FLAME_DATA, 'slow.clinic-flame-samples'), 'utf8'))
}

// The first sample's stack through a frame named as `frame` matches, up to
// that frame; undefined where no sample has one.
function stackUpTo (samples, frame) {
  const matches = (entry) => frame.test(entry.name)
  const through = samples.find((stack) => stack.some(matches))
  return through?.slice(0, through.findIndex(matches) + 1)
}

// A copy of the recorded Flame run in the test's folder, with `samples` as
// its samples.
function flameDataWith (t, samples) {
  const data = path.join(t.testdir(), path.basename(FLAME_DATA))
  fs.mkdirSync(data)
  for (const file of fs.readdirSync(FLAME_DATA)) fs.copyFileSync(path.join(FLAME_DATA, file), path.join(data, file))
  fs.writeFileSync(path.join(data, 'slow.clinic-flame-samples'), JSON.stringify(samples))
  return data
}
