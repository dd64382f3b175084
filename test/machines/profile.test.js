'use strict'

// `npm run profile -- slow`'s top frame on a machine a quarter as fast as
// this one and on one four times as fast (test/machine-speed.js emulates
// them): the after listener, as README step 3 shows it, at both ends. This
// machine's own speed: test/diagnose/profile.test.js. Flame's, at both ends:
// test/clinic/clinic.test.js.
//
// At four times the speed each listener does its work on one response in
// four, so restify's own work per response, and the writes, weigh more:
// there the listener's share is the lowest, and the frames below it are the
// garbage collector and writev.
//
// And on CPUs where hashing, or serialization, is four times cheaper against
// the rest (test/machine-mix.js): the listener's own work shrinks, restify's
// does not. A dearer mix only adds to the listener's self time.

const t = require('tap')
const path = require('node:path')
const { profile } = require('../../diagnose/profile')
const { LEAKING_REQUESTS } = require('../../diagnose/load')
const { resolveServerPath } = require('../../tooling/server-path')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { skipOffMainLine } = require('../skips')
const { atSpeed } = require('../machine-speed')
const { MIXES, slowAtMix } = require('../machine-mix')

// slow's 600 requests at a quarter of the speed: 18 to 36 s of load on an
// AMD EPYC beside others' runs, and the profile written after it.
t.setTimeout(4 * 60 * 1000)

const skip = skipOffMainLine("the profile's top frame at emulated machine speeds is a measurement")

for (const speed of [0.25, 4]) {
  t.test(`at ${speed} times this machine's speed: the after listener on top of the profile`, { skip }, async (t) => {
    const server = resolveServerPath(atSpeed(t, speed))
    // A copy is loaded as slow is by `npm run profile -- slow`: by its
    // count of requests (a copy's name is not slow's, so it is given).
    const result = await profile(server, { requests: LEAKING_REQUESTS, dir: t.testdir() })
    t.equal(result.code, 0, result.error)
    const { frames } = result.hottest
    t.ok(isAfterListener(frames[0].location), `the hottest frame by self time is the after listener: ${sharesOf(frames)}`)
  })
}

for (const mix of MIXES.filter(({ factor }) => factor < 1)) {
  t.test(`${mix.name}: the after listener on top of the profile`, { skip }, async (t) => {
    const result = await profile(resolveServerPath(slowAtMix(t, mix)), { requests: LEAKING_REQUESTS, dir: t.testdir() })
    t.equal(result.code, 0, result.error)
    const { frames } = result.hottest
    t.ok(isAfterListener(frames[0].location), `the hottest frame by self time is the after listener: ${sharesOf(frames)}`)
  })
}

// Whether `location` (a copy's etag.js:25) is the line that adds the
// after listener: in a copy, the listener the emulation wraps
// (emulatedSpeed's own function is further down the file).
function isAfterListener (location) {
  const [file, line] = location.split(':')
  return /^[^/]+\/etag\.js$/.test(file) && /server\.on\('after'/.test(readText(path.join(ROOT, file)).split('\n')[Number(line) - 1])
}

// Frames as an assertion's message shows them: "name location 9.4 %, ...".
function sharesOf (frames) {
  return frames.map((frame) => `${frame.functionName} ${frame.location} ${(frame.share * 100).toFixed(1)} %`).join(', ')
}
