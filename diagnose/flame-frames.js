'use strict'

// Counts the frames of Flame's analysed tree for clinic-analysis.js, the profiler's output set apart.

const { repoPath, ownCodePath } = require('./repo-paths')

// The C library's output calls. 0x has V8 print optimized source to stdout from the main thread, and
// a write that waits piles samples onto whatever JavaScript ran (docs/diagnose.md, "Flame on fixed").
// A write whose nearest JavaScript caller is Node's I/O code (NODE_IO) is the server's, and stays.
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

// This repo's functions by their samples on the stack (Flame's width), recursion counted once.
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

// The `top` frames as the tree is viewed (setStackTop); `leftOut`, the profiler's output's share.
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
    // A [SHARED_LIB] frame has a file and no line: the profiler found no symbol for it.
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
