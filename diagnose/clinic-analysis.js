'use strict'

// Reads Doctor's verdict and Flame's hottest frames from a run's data in .clinic/.
// These are clinic's internal modules, not an API: their versions are pinned and checked here.

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

function checkPinnedVersions (packages, pinned) {
  for (const name of packages) {
    const installed = require(`${name}/package.json`).version
    if (installed !== pinned[name]) {
      throw new Error(`diagnose reads ${name}'s internal modules and knows version ${pinned[name]} only; ` +
        `${installed} is installed. Run \`npm ci\` to install the pinned version.`)
    }
  }
}

function dataFile (dataDir, kind) {
  const file = path.join(dataDir, `${path.basename(dataDir)}-${kind}`)
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: not a complete clinic data folder`)
  return file
}

// Resolves to Doctor's { issueCategory, issues }, as its report shows them.
function readDoctorAnalysis (dataDir) {
  return new Promise((resolve, reject) => {
    const [systemInfoFile, traceEventFile, processStatFile] = ['systeminfo', 'traceevent', 'processstat'].map((kind) => dataFile(dataDir, kind))
    const decoded = (file, decoder) => pipeline(fs.createReadStream(file), decoder, (err) => { if (err) reject(err) })
    const systemInfo = decoded(systemInfoFile, new SystemInfoDecoder())
    const traceEvents = decoded(traceEventFile, new TraceEventDecoder(systemInfo))
    const processStats = decoded(processStatFile, new ProcessStatDecoder())
    new DoctorAnalysis(systemInfo, traceEvents, processStats)
      .on('data', ({ issueCategory, issues }) => resolve({ issueCategory, issues }))
      .on('error', reject)
  })
}

// Resolves to Doctor's samples of the server: [{ timestamp, delay (ms), cpu (1 is a core) }].
function readProcessStats (dataDir) {
  return new Promise((resolve, reject) => {
    const samples = []
    const decoder = new ProcessStatDecoder()
    decoder.on('data', ({ timestamp, delay, cpu }) => samples.push({ timestamp, delay, cpu }))
    pipeline(fs.createReadStream(dataFile(dataDir, 'processstat')), decoder, (err) => err ? reject(err) : resolve(samples))
  })
}

// Flame's `top` frames by self time: `folded` as its default view counts them, less the
// profiler's output (`profilerShare`), and `all` with every frame shown; `ownShare` and
// `ownByTotal` are this repo's own frames together and by their time on the stack.
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
