'use strict'

// Reading clinic's own findings from the data a run left in .clinic/: the
// Doctor's verdict, computed by Doctor's analysis (what it means on a busy
// machine: doctor-verdict.js), and Flame's hottest frames, computed by
// Flame's analysis (counted in flame-frames.js).
//
// These are modules of clinic's tool packages, not a documented API, and
// clinic is no longer maintained: the versions are pinned exactly in
// package.json and checked here at load, so an upgrade stops with a message
// instead of misreading. test/diagnose/clinic-analysis.test.js reads committed data
// folders (test/diagnose/fixtures/clinic/) in npm test; test:clinic, real runs.

const fs = require('node:fs')
const path = require('node:path')
const { pipeline } = require('node:stream')
const { ROOT } = require('../tooling/repo')
const { describeDoctorVerdict } = require('./doctor-verdict')
const { judgeMachine } = require('./machine')
const { markProfilerOutput, hottestFrames, ownFramesByTotal } = require('./flame-frames')

const CLINIC_PACKAGES = ['clinic', '@clinic/doctor', '@clinic/flame']
checkPinnedVersions(CLINIC_PACKAGES, require('../package.json').optionalDependencies)

const DoctorAnalysis = require('@clinic/doctor/analysis/index.js')
const SystemInfoDecoder = require('@clinic/doctor/format/system-info-decoder.js')
const TraceEventDecoder = require('@clinic/doctor/format/trace-event-decoder.js')
const ProcessStatDecoder = require('@clinic/doctor/format/process-stat-decoder.js')
const analyseFlame = require('@clinic/flame/analysis/index.js')
const { setStackTop, defaultExclude } = require('@clinic/flame/shared.js')

/**
 * Throws, naming the package and both versions, unless each of `packages`
 * is installed at exactly the version `pinned` (name -> version) gives.
 */
function checkPinnedVersions (packages, pinned) {
  for (const name of packages) {
    const installed = require(`${name}/package.json`).version
    if (installed !== pinned[name]) {
      throw new Error(`diagnose reads ${name}'s internal modules and knows version ${pinned[name]} only; ` +
        `${installed} is installed. Run \`npm ci\` to install the pinned version.`)
    }
  }
}

// A data folder `.clinic/123.clinic-doctor` holds `123.clinic-doctor-<kind>`.
function dataFile (dataDir, kind) {
  const file = path.join(dataDir, `${path.basename(dataDir)}-${kind}`)
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: not a complete clinic data folder`)
  return file
}

/**
 * Doctor's analysis of the run in `dataDir`: resolves to
 * { issueCategory, issues } as the Doctor report shows them, where
 * issueCategory is 'none', 'event-loop', 'io', 'gc', 'data' or 'unknown'.
 */
function readDoctorAnalysis (dataDir) {
  return new Promise((resolve, reject) => {
    // Every file found before any is read: a missing one stops it all here.
    const [systemInfoFile, traceEventFile, processStatFile] = ['systeminfo', 'traceevent', 'processstat'].map((kind) => dataFile(dataDir, kind))
    // Each file decoded through a pipeline, so a read error rejects.
    const decoded = (file, decoder) => pipeline(fs.createReadStream(file), decoder, (err) => { if (err) reject(err) })
    const systemInfo = decoded(systemInfoFile, new SystemInfoDecoder())
    const traceEvents = decoded(traceEventFile, new TraceEventDecoder(systemInfo))
    const processStats = decoded(processStatFile, new ProcessStatDecoder())
    new DoctorAnalysis(systemInfo, traceEvents, processStats)
      .on('data', ({ issueCategory, issues }) => resolve({ issueCategory, issues }))
      .on('error', reject)
  })
}

/**
 * Doctor's samples of the server in `dataDir` (every 10 ms, taken in the
 * server): [{ timestamp (Date.now()), delay (ms), cpu (the server's CPU time
 * over the sample's time: 1 is a whole core) }].
 */
function readProcessStats (dataDir) {
  return new Promise((resolve, reject) => {
    const samples = []
    const decoder = new ProcessStatDecoder()
    decoder.on('data', ({ timestamp, delay, cpu }) => samples.push({ timestamp, delay, cpu }))
    pipeline(fs.createReadStream(dataFile(dataDir, 'processstat')), decoder, (err) => err ? reject(err) : resolve(samples))
  })
}

/**
 * Flame's hottest frames in the run in `dataDir`, by self time ("top of
 * stack"), from one analysis, counted two ways: `folded` as Flame's default
 * view counts them (V8 and C++ frames hidden, their time given to the
 * nearest visible caller), but without the profiler's own output
 * (`profilerShare` of the samples: markProfilerOutput), `all` with every
 * frame counted for itself (Flame's V8 and C++ filters switched on). Each is
 * [{ functionName, location, share, own }] for the `top` hottest; `own`
 * tells whether the frame is code of the repository at `root` (where the run
 * happened; this one by default). `ownShare`: all of the repository's own
 * frames together, counted as `folded` counts them.
 * `ownByTotal` lists the repository's own functions by their share of
 * samples on the stack, calls included: where a story's line spends its
 * time in Node (a write, a key derivation), this names the line's function.
 */
async function readHottestFrames (dataDir, { top = 8, root = ROOT } = {}) {
  const { merged } = await analyseFlame({
    '/systeminfo': dataFile(dataDir, 'systeminfo'),
    '/samples': dataFile(dataDir, 'samples'),
    '/inlinedfunctions': dataFile(dataDir, 'inlinedfunctions')
  })
  markProfilerOutput(merged)
  setStackTop(merged, defaultExclude)
  const { frames: folded, leftOut, ownShare } = hottestFrames(merged, top, root, { leaveOutProfiler: true })
  setStackTop(merged, new Set())
  const { frames: all } = hottestFrames(merged, top, root)
  setStackTop(merged, defaultExclude)
  return { folded, profilerShare: leftOut, ownShare, all, ownByTotal: ownFramesByTotal(merged, top, root) }
}

module.exports = { readDoctorAnalysis, readProcessStats, judgeMachine, describeDoctorVerdict, readHottestFrames, checkPinnedVersions }
