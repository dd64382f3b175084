'use strict'

// Reading clinic's own findings from the data a run left in .clinic/: the
// Doctor's verdict, computed by Doctor's analysis, and Flame's hottest
// frames, computed by Flame's analysis.
//
// These are modules of clinic's tool packages, not a documented API, and
// clinic is no longer maintained: the versions are pinned exactly in
// package.json and checked here at load, so an upgrade stops with a message
// instead of misreading. test/clinic-analysis.test.js reads committed data
// folders (test/fixtures/clinic/) in npm test; test:clinic, real runs.

const fs = require('node:fs')
const path = require('node:path')
const { pipeline } = require('node:stream')
const { ROOT, pathInside } = require('../tooling/repo')

const CLINIC_PACKAGES = ['clinic', '@clinic/doctor', '@clinic/flame']
checkPinnedVersions(CLINIC_PACKAGES, require('../package.json').devDependencies)

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
 * A sentence for Doctor's verdict, naming what it flagged. Where the
 * event-loop delay is flagged, the sentence says so first and gives
 * Doctor's headline after it: on slow the delay is flagged on every
 * machine, while the headline moves with the machine (gc where garbage
 * collection blocks the loop 100 ms a second; cpu flagged too beside another
 * busy process, the CPU it did not get read as waiting). docs/diagnose.md
 * has the runs.
 */
function describeDoctorVerdict (variant, { issueCategory, issues }) {
  if (issueCategory === 'none') return `${variant}: no issue detected`
  const flagged = Object.entries({ ...issues, ...prefixed('memory', issues.memory) })
    .filter(([, value]) => value === 'performance')
    .map(([name]) => name)
  const headline = `${issueCategory} issue detected`
  if (!flagged.includes('delay')) return `${variant}: ${headline}${flagged.length > 0 ? ` (flagged: ${flagged.join(', ')})` : ''}`
  const others = flagged.filter((name) => name !== 'delay')
  return `${variant}: the event-loop delay is flagged (Doctor's headline: ${headline}${others.length > 0 ? `; also flagged: ${others.join(', ')}` : ''})`
}

function prefixed (prefix, object) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [`${prefix} ${key}`, value]))
}

/**
 * Flame's hottest frames in the run in `dataDir`, by self time ("top of
 * stack"), from one analysis, counted two ways: `folded` as Flame's default
 * view counts them (V8 and C++ frames hidden, their time given to the
 * nearest visible caller), `all` with every frame counted for itself (Flame's
 * V8 and C++ filters switched on). Each is [{ functionName, location, share,
 * own }] for the `top` hottest; `own` tells whether the frame is code of the
 * repository at `root` (where the run happened; this one by default).
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
  const folded = hottestFrames(merged, top, root) // the analysis sets the default view
  setStackTop(merged, new Set())
  const all = hottestFrames(merged, top, root)
  setStackTop(merged, defaultExclude)
  return { folded, all, ownByTotal: ownFramesByTotal(merged, top, root) }
}

// This repo's functions by the share of samples they are on the stack for,
// themselves or what they call (Flame's width): the line of our code that
// leads to the time, wherever in Node or a library the time itself is spent.
function ownFramesByTotal (tree, top, root) {
  let total = 0
  tree.walk((node) => { total += node.onStackTop.base })
  const byFrame = new Map()
  ;(function visit (node, onPath) {
    let path = onPath
    const shown = node.id !== 0 && ownCodePath(root, node.fullFileName)
    if (shown) {
      const location = `${shown}:${node.lineNumber}`
      const key = `${node.functionName} ${location}`
      // A function already on this stack (recursion) is counted once.
      if (!onPath.has(key)) {
        const frame = byFrame.get(key) || { functionName: node.functionName || '(anonymous)', location, samples: 0, own: true }
        frame.samples += node.onStack
        byFrame.set(key, frame)
        path = new Set(onPath).add(key)
      }
    }
    for (const child of node.children) visit(child, path)
  })(tree, new Set())
  return [...byFrame.values()]
    .sort((a, b) => b.samples - a.samples)
    .slice(0, top)
    .map(({ samples, ...frame }) => ({ ...frame, share: samples / total }))
}

function hottestFrames (tree, top, root) {
  const byFrame = new Map()
  let total = 0
  tree.walk((node) => {
    total += node.onStackTop.base
    if (node.onStackTop.asViewed === 0 || node.id === 0) return
    const file = repoPath(root, node.fullFileName) ?? node.fileName
    const location = file ? `${file}:${node.lineNumber}` : `[${node.type}]`
    const key = `${node.functionName} ${location}`
    const frame = byFrame.get(key) || { functionName: node.functionName || '(anonymous)', location, samples: 0, own: Boolean(ownCodePath(root, node.fullFileName)) }
    frame.samples += node.onStackTop.asViewed
    byFrame.set(key, frame)
  })
  return [...byFrame.values()]
    .sort((a, b) => b.samples - a.samples)
    .slice(0, top)
    .map(({ samples, ...frame }) => ({ ...frame, share: samples / total }))
}

// Where `file` is inside the repository at `root`, as the tools print it
// (slow/etag.js), or null: see pathInside. Once per file: a profile names
// the same few hundred files in thousands of frames, and pathInside asks
// the file system for both real paths each time.
const repoPaths = new Map()
function repoPath (root, file) {
  const key = `${root}\0${file}`
  if (!repoPaths.has(key)) {
    const relative = pathInside(file, { dir: root })
    repoPaths.set(key, relative ? relative.split(path.sep).join('/') : null)
  }
  return repoPaths.get(key)
}

// The same for the repository's own code only: outside node_modules.
function ownCodePath (root, file) {
  const shown = repoPath(root, file)
  return shown && !shown.split('/').includes('node_modules') ? shown : null
}

module.exports = { readDoctorAnalysis, describeDoctorVerdict, readHottestFrames, checkPinnedVersions }
