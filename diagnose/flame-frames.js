'use strict'

// Counting the frames of Flame's analysed tree: the hottest by self time,
// the profiler's own output set apart, and this repository's functions by
// their time on the stack. clinic-analysis.js reads the tree from clinic's
// data and views it through Flame's filters.

const { repoPath, ownCodePath } = require('./repo-paths')

// The C library's output calls. Flame (0x) runs the
// server with V8 writing its profile log and, for every function it
// optimizes, that function's source to stdout (--print-opt-source), a
// character at a time, from the main thread, wherever the JavaScript
// happens to be. Where a write waits (a busy disk, a reader that falls
// behind, a busy machine) the samples pile up in it, dozens in a row, a
// sizeable share of a short profile of fixed in such runs, part of it in
// write(). Flame's default view folds C and C++ frames into the JavaScript
// function that called them, so that wait was counted as that function's
// own time: ifNoneMatchMatches, which returns at its first line under this
// load, as if it were costly. In the default view these samples are left
// out (profilerShare says how many); with every frame shown they
// count for themselves, as `[system]`. writev is not among them: it is
// Node writing the responses (writevGeneric). docs/diagnose.md, "Flame on
// fixed", says why.
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
    // A frame Flame calls [SHARED_LIB] has a file and no line: code of that
    // binary or library that the profiler found no symbol for.
    const location = !file ? `[${node.type}]` : node.lineNumber === null ? file : `${file}:${node.lineNumber}`
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

module.exports = { markProfilerOutput, hottestFrames, ownFramesByTotal }
