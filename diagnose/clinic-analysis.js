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

// A machine is too busy to judge the server on when other processes took
// at least this share of all its CPU during the load, and less than a core
// was left idle on average (so the server could not just run on the idle
// one: on a 16-core laptop a browser can take a quarter of the CPU and
// leave the server a core of its own). A fifth of 2 cores is 0.4 of a core,
// while the server wants a whole one and autocannon about 0.4: there is no
// whole core left for the server, and Doctor's CPU check asks for 90 % of
// one. Beside `npm run cpu-hog` on 2 cores other processes read 51 to 78 %
// here, and beside no hog but other work (load average 8 to 17) 44 to 75 %:
// docs/diagnose.md, "Doctor on a busy machine", has the runs.
const BUSY_OTHERS_SHARE = 0.2
// Doctor's delay rule (@clinic/doctor/analysis/analyse-delay.js) flags a
// median delay of 10 ms or more, or a single one of 100 ms or more. Neither
// tells a busy machine from a blocked server: beside a hog (load average
// 17) fixed once waited 368 ms, while slow's median delay was 0.5 to 2 ms
// (its long turns leave few samples). What does: the share of the load's
// time the event loop spent late, the sum of the delays over the time
// sampled. Beside the hog slow was late 85 to 91 % of the time, fixed 14 to
// 32 % (on 0.26 to 0.57 of a core): docs/diagnose.md, "Doctor on a busy
// machine".
const BLOCKED_SHARE = 0.5

/**
 * How the machine's CPU went during the load, and whether the server got
 * its share: `cpu` as clinic-run.js's cpuDuring measured it, `samples`
 * Doctor's (readProcessStats). Returns { measured: false, why } where the
 * OS gave no CPU times; otherwise { measured: true, othersShare (what
 * processes other than the server and the load took, of all the machine's
 * CPU), idleCores, serverCores (the cores' worth the server got), busy,
 * delayBeyondMachine }.
 *
 * `blockedShare`: the share of the load's time the event loop was late
 * (the sum of Doctor's delays over the time they span); `delayBeyondMachine`
 * whether it is half or more: a server waiting for its share of the CPU is
 * late now and then, a server whose every turn is long, most of the time.
 */
function judgeMachine (cpu, samples) {
  if (!cpu || !cpu.allMs || !(cpu.cores > 0)) {
    return { measured: false, why: 'the OS gave no CPU times' }
  }
  const during = samples.filter((s) => s.timestamp > cpu.from && s.timestamp <= cpu.to)
  const wallMs = cpu.to - cpu.from
  if (during.length < 2 || !(wallMs > 0)) return { measured: false, why: 'Doctor took no samples during the load' }
  let serverMs = 0
  for (let i = 1; i < during.length; i++) serverMs += during[i].cpu * (during[i].timestamp - during[i - 1].timestamp)
  const sampledMs = during[during.length - 1].timestamp - during[0].timestamp
  const serverCores = sampledMs > 0 ? serverMs / sampledMs : 0
  const othersMs = Math.max(0, cpu.busyMs - serverCores * wallMs - cpu.loadMs)
  const othersShare = othersMs / cpu.allMs
  const idleCores = (cpu.allMs - cpu.busyMs) / wallMs
  const busy = othersShare >= BUSY_OTHERS_SHARE && idleCores < 1
  const blockedShare = sampledMs > 0 ? during.slice(1).reduce((sum, s) => sum + s.delay, 0) / sampledMs : 0
  const delayBeyondMachine = blockedShare >= BLOCKED_SHARE
  return { measured: true, othersShare, idleCores, serverCores, busy, blockedShare, delayBeyondMachine }
}

/**
 * A sentence for Doctor's verdict, naming what it flagged. Where the
 * event-loop delay is flagged, the sentence says so first and gives
 * Doctor's headline after it: on slow the delay is flagged on every
 * machine, while the headline moves with the machine (gc where garbage
 * collection blocks the loop 100 ms a second; cpu flagged too beside another
 * busy process, the CPU it did not get read as waiting). docs/diagnose.md
 * has the runs.
 *
 * `machine` (judgeMachine's) says whether the server got its share of the
 * CPU. Where it did not, what Doctor flagged is what a server short of CPU
 * looks like (its CPU below 90 % of a core reads as waiting on I/O, its
 * turns and GC pauses stretch into delay), so the verdict says the machine
 * was busy and judges nothing, unless the delay is beyond what the machine
 * explains (slow's is). A run with nothing flagged is "no issue" either way.
 */
function describeDoctorVerdict (variant, { issueCategory, issues }, machine = null) {
  if (issueCategory === 'none') return `${variant}: no issue detected`
  const flagged = Object.entries({ ...issues, ...prefixed('memory', issues.memory) })
    .filter(([, value]) => value === 'performance')
    .map(([name]) => name)
  const headline = `${issueCategory} issue detected`
  const busy = machine?.measured && machine.busy
  const others = `other processes used ${Math.round(machine?.othersShare * 100)} % of the CPU during the load`
  if (busy && !(flagged.includes('delay') && machine.delayBeyondMachine)) {
    return `${variant}: not judged: the machine was busy (${others}; ${variant} got ${machine.serverCores.toFixed(2)} of a core). ` +
      `Run it again on a quieter machine. Doctor's headline, read from a server short of CPU: ${headline}` +
      `${flagged.length > 0 ? ` (flagged: ${flagged.join(', ')})` : ''}`
  }
  const notes = []
  if (busy) notes.push(`the machine was busy (${others}), and the delay is beyond what that explains`)
  if (machine && !machine.measured) notes.push(`how busy the machine was is unknown: ${machine.why}`)
  if (!flagged.includes('delay')) {
    const parts = [...(flagged.length > 0 ? [`flagged: ${flagged.join(', ')}`] : []), ...notes]
    return `${variant}: ${headline}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`
  }
  const rest = flagged.filter((name) => name !== 'delay')
  const parts = [`Doctor's headline: ${headline}`, ...(rest.length > 0 ? [`also flagged: ${rest.join(', ')}`] : []), ...notes]
  return `${variant}: the event-loop delay is flagged (${parts.join('; ')})`
}

function prefixed (prefix, object) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [`${prefix} ${key}`, value]))
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

// The C library's output calls. Flame (0x) runs the
// server with V8 writing its profile log and, for every function it
// optimizes, that function's source to stdout (--print-opt-source), a
// character at a time, from the main thread, wherever the JavaScript
// happens to be. Where a write waits (a busy disk, a reader that falls
// behind, a busy machine) the samples pile up in it: 10 to 116 in a row
// here, 5 to 15 % of a 2-second profile of fixed in such runs, and a fifth
// of it in write() all told. Flame's default view folds C and C++ frames
// into the JavaScript function that called them, so that wait was counted
// as that function's own time: ifNoneMatchMatches, which returns at its
// first line under this load, at 8.4 %. In the default view these samples
// are left out (profilerShare says how many); with every frame shown they
// count for themselves, as `[system]`. writev is not among them: it is
// Node writing the responses (writevGeneric). docs/diagnose.md, "Flame on
// fixed", has the runs.
//
// A write the server itself makes goes through Node's I/O code (fs.writeSync
// for the logging story's synchronous log, the stream code for sockets): a
// write() whose nearest JavaScript caller is there stays with that caller.
const PROFILER_OUTPUT = /^(?:(?:__write|write|fputc|fputs|fwrite|_IO_fwrite|_IO_fflush|fflush)(?:@|$)|std::ostream::)/
const NODE_IO = /^node:(?:fs|net|tty|dgram|internal\/fs\/|internal\/stream_base_commons|internal\/child_process)/
function markProfilerOutput (tree) {
  ;(function visit (node, caller) {
    const native = node.category === 'all-v8'
    if (native && node.type === 'cpp' && PROFILER_OUTPUT.test(node.functionName) && !NODE_IO.test(caller?.fileName ?? '')) {
      node.category = 'system'
      node.type = 'system'
    }
    const next = native || node.id === 0 ? caller : node
    for (const child of node.children) visit(child, next)
  })(tree, null)
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

// The `top` hottest frames as the tree is viewed (setStackTop); the share
// of samples `leftOut`: the profiler's output (markProfilerOutput), when
// `leaveOutProfiler`, counted neither for a frame nor in the total; and
// `ownShare`, what all of the repository's own frames hold together.
function hottestFrames (tree, top, root, { leaveOutProfiler = false } = {}) {
  const byFrame = new Map()
  let total = 0
  let leftOut = 0
  tree.walk((node) => {
    total += node.onStackTop.base
    if (leaveOutProfiler && node.category === 'system') {
      leftOut += node.onStackTop.asViewed
      return
    }
    if (node.onStackTop.asViewed === 0 || node.id === 0) return
    const file = repoPath(root, node.fullFileName) ?? node.fileName
    const location = file ? `${file}:${node.lineNumber}` : `[${node.type}]`
    const key = `${node.functionName} ${location}`
    const frame = byFrame.get(key) || { functionName: node.functionName || '(anonymous)', location, samples: 0, own: Boolean(ownCodePath(root, node.fullFileName)) }
    frame.samples += node.onStackTop.asViewed
    byFrame.set(key, frame)
  })
  const counted = total - leftOut
  const frames = [...byFrame.values()].sort((a, b) => b.samples - a.samples)
  return {
    frames: frames.slice(0, top).map(({ samples, ...frame }) => ({ ...frame, share: samples / counted })),
    leftOut: total > 0 ? leftOut / total : 0,
    ownShare: frames.filter((frame) => frame.own).reduce((sum, frame) => sum + frame.samples, 0) / counted
  }
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

module.exports = { readDoctorAnalysis, readProcessStats, judgeMachine, describeDoctorVerdict, readHottestFrames, checkPinnedVersions }
