'use strict'

// Reading clinic's own findings from the data a run left in .clinic/: the
// Doctor's verdict, computed by Doctor's analysis, and Flame's hottest
// frames, computed by Flame's analysis. These are modules of clinic's tool
// packages, not its documented API: the lockfile pins their versions and
// test/clinic/ checks them against real runs.

const fs = require('node:fs')
const path = require('node:path')
const DoctorAnalysis = require('@clinic/doctor/analysis/index.js')
const SystemInfoDecoder = require('@clinic/doctor/format/system-info-decoder.js')
const TraceEventDecoder = require('@clinic/doctor/format/trace-event-decoder.js')
const ProcessStatDecoder = require('@clinic/doctor/format/process-stat-decoder.js')
const analyseFlame = require('@clinic/flame/analysis/index.js')
const { setStackTop, defaultExclude } = require('@clinic/flame/shared.js')

const ROOT = path.join(__dirname, '..')

// A data folder `.clinic/123.clinic-doctor` holds `123.clinic-doctor-<kind>`.
function dataFile (dataDir, kind) {
  return path.join(dataDir, `${path.basename(dataDir)}-${kind}`)
}

/**
 * Doctor's analysis of the run in `dataDir`: resolves to
 * { issueCategory, issues } as the Doctor report shows them, where
 * issueCategory is 'none', 'event-loop', 'io', 'gc', 'data' or 'unknown'.
 */
function readDoctorAnalysis (dataDir) {
  const systemInfo = fs.createReadStream(dataFile(dataDir, 'systeminfo')).pipe(new SystemInfoDecoder())
  const traceEvents = fs.createReadStream(dataFile(dataDir, 'traceevent')).pipe(new TraceEventDecoder(systemInfo))
  const processStats = fs.createReadStream(dataFile(dataDir, 'processstat')).pipe(new ProcessStatDecoder())
  return new Promise((resolve, reject) => {
    new DoctorAnalysis(systemInfo, traceEvents, processStats)
      .on('data', ({ issueCategory, issues }) => resolve({ issueCategory, issues }))
      .on('error', reject)
  })
}

/**
 * A sentence for Doctor's verdict, naming what it flagged.
 */
function describeDoctorVerdict (variant, { issueCategory, issues }) {
  if (issueCategory === 'none') return `${variant}: no issue detected`
  const flagged = Object.entries({ ...issues, ...prefixed('memory', issues.memory) })
    .filter(([, value]) => value === 'performance')
    .map(([name]) => name)
  const detail = flagged.length > 0 ? ` (flagged: ${flagged.join(', ')})` : ''
  return `${variant}: ${issueCategory} issue detected${detail}`
}

function prefixed (prefix, object) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [`${prefix} ${key}`, value]))
}

/**
 * Flame's hottest frames in the run in `dataDir`, by self time ("top of
 * stack"), as Flame's default view counts it: V8 and C++ frames are hidden
 * and their time goes to the nearest visible caller. With `showAll`, every
 * frame counts for itself, as with Flame's V8 and C++ filters switched on.
 * Resolves to [{ functionName, location, share, own }] for the `top` hottest;
 * `own` tells whether the frame is in this repository's code.
 */
async function readHottestFrames (dataDir, { top = 8, showAll = false } = {}) {
  const { merged } = await analyseFlame({
    '/systeminfo': dataFile(dataDir, 'systeminfo'),
    '/samples': dataFile(dataDir, 'samples'),
    '/inlinedfunctions': dataFile(dataDir, 'inlinedfunctions')
  })
  setStackTop(merged, showAll ? new Set() : defaultExclude)

  const byFrame = new Map()
  let total = 0
  merged.walk((node) => {
    total += node.onStackTop.base
    if (node.onStackTop.asViewed === 0 || node.id === 0) return
    const own = isOwnCode(node.fullFileName)
    const file = isInside(ROOT, node.fullFileName) ? path.relative(ROOT, node.fullFileName) : node.fileName
    const location = file ? `${file}:${node.lineNumber}` : `[${node.type}]`
    const key = `${node.functionName} ${location}`
    const frame = byFrame.get(key) || { functionName: node.functionName || '(anonymous)', location, samples: 0, own }
    frame.samples += node.onStackTop.asViewed
    byFrame.set(key, frame)
  })
  return [...byFrame.values()]
    .sort((a, b) => b.samples - a.samples)
    .slice(0, top)
    .map(({ samples, ...frame }) => ({ ...frame, share: samples / total }))
}

// This repository's own code: a file under its root, outside node_modules.
function isOwnCode (file) {
  return isInside(ROOT, file) && !path.relative(ROOT, file).split(path.sep).includes('node_modules')
}

function isInside (dir, file) {
  return Boolean(file) && path.isAbsolute(file) && !path.relative(dir, file).startsWith('..')
}

module.exports = { readDoctorAnalysis, describeDoctorVerdict, readHottestFrames }
