'use strict'

// Doctor and Flame on slow on a machine a quarter as fast as this one and on
// one four times as fast (test/machine-speed.js emulates them): Doctor's
// delay flagged, or said plainly that its rule cannot see the leak there;
// Flame's hottest frame the after listener at both ends. At four times the
// speed each listener works on one response in four, so restify's own work
// and the writes weigh more: the listener's share is the lowest there, with
// the hash's update a frame of its own next to it (docs/node-tools.md, "A faster
// and a slower machine"). Part of `npm run test:clinic`, run with plain `node`
// (clinic.test.js says why), on the main line only: the verdicts at
// emulated speeds are measurements, as npm test's are.

const t = require('tap')
const path = require('node:path')
const { diagnose } = require('../../diagnose')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { skipOffMainLine } = require('../skips')
const { atSpeed } = require('../machine-speed')
const { UNSEEN_LEAK } = require('./unseen-leak')

// slow's 600 requests at a quarter of the speed: 30 to 60 s a run.
t.setTimeout(8 * 60 * 1000)

const options = { log: () => {}, html: false, requests: 600 }
const skip = skipOffMainLine('clinic at emulated machine speeds is a measurement')

for (const speed of [0.25, 4]) {
  t.test(`doctor on slow at ${speed} times this machine's speed: flagged, or said plainly`, { skip }, async (t) => {
    const result = await diagnose('doctor', atSpeed(t, speed), options)
    t.equal(result.code, 0, result.error)
    const flagged = /^Doctor flags \S+'s event-loop delay\. /.test(result.verdict)
    // Doctor's headline may still name another issue (gc, say): the line
    // is about the delay it did not flag.
    const unseen = !flagged && UNSEEN_LEAK.test(result.unseen)
    // Beside other work Doctor judges nothing (machine.js), and says so.
    const notJudged = result.machine.busy && /^Doctor did not judge \S+: the machine was busy\. /.test(result.verdict)
    // At either speed: Doctor's rule is in milliseconds, so whether it
    // flags slow is the CPU's (a fast one keeps slow under it even at a
    // quarter); that it says which, plainly, is the tool's.
    t.ok(flagged || unseen || notJudged, `${result.verdict}; ${result.unseen}`)
  })

  t.test(`flame on slow at ${speed} times this machine's speed: the after listener on top`, { skip }, async (t) => {
    const result = await diagnose('flame', atSpeed(t, speed), options)
    t.equal(result.code, 0, result.error)
    const [file, line] = result.frames[0].location.split(':')
    const source = /^[^/]+\/etag\.js$/.test(file) ? readText(path.join(ROOT, file)).split('\n')[Number(line) - 1] : ''
    const shares = result.frames.map((frame) => `${frame.functionName} ${frame.location} ${(frame.share * 100).toFixed(1)} %`).join(', ')
    t.match(source, /server\.on\('after'/, `the hottest frame is the after listener: ${shares}`)
  })
}
