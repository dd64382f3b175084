'use strict'

// Reading a V8 CPU profile, the .cpuprofile that `node --cpu-prof` writes
// and Chrome DevTools reads: the hottest functions by self time, this repo's
// functions by their time on the stack, and the call tree a flame graph
// draws. Pure: a profile in, figures out (the only outside look is
// repo-paths.js's, at where a file really is).
//
// The profile is a tree of nodes, one per call path: { id, callFrame:
// { functionName, url, lineNumber (0-based), columnNumber }, children },
// and `samples`, the node on top of the stack at each tick (every 1 ms by
// default). A function shows up in as many nodes as it has callers, so
// nodes are counted by their function: the same url, line and column (and
// name, for the nodes with no url). Shares are of samples, as Flame's are,
// not of the time between them (DevTools weighs by time): a tick the
// process did not get, on a busy machine, is then no one's.
//
// V8's own nodes, which DevTools' Bottom-Up view shows as rows:
//   (garbage collector)  a row like any function: the server's CPU, spent
//                        because of what it allocates; a participant should
//                        see it beside the function that allocates;
//   (program)            a row too: CPU in native code with no JavaScript
//                        on the stack (libuv, Node's C++ between calls);
//   (idle)               left out of every share, and counted apart: the
//                        thread waiting for work, no CPU spent, so a share
//                        of it would only say how long the load took to
//                        start and end;
//   (root)               never on top of a stack.

const { fileURLToPath } = require('node:url')
const { ROOT } = require('../tooling/repo')
const { repoPath, ownCodePath } = require('./repo-paths')

const IDLE = '(idle)'
const V8_NODES = new Set(['(root)', '(program)', IDLE, '(garbage collector)'])

/**
 * The profile in `text` (JSON), checked for what the readers below use.
 * Throws an Error saying what is missing where it is no CPU profile.
 */
function parseCpuProfile (text) {
  const profile = JSON.parse(text)
  if (!Array.isArray(profile?.nodes) || profile.nodes.length === 0 || !profile.nodes.every((node) => Number.isInteger(node?.id) && node.callFrame)) {
    throw new Error('not a CPU profile: no nodes with an id and a callFrame')
  }
  if (!Array.isArray(profile.samples)) throw new Error('not a CPU profile: no samples')
  return profile
}

/**
 * The `top` functions with the most samples on top of the stack (self
 * time), as the frames table prints them: [{ functionName, location,
 * share, own, from? }], shares of the samples counted (all but (idle)).
 * `from` is, for a function not of this repo, the location of this repo's
 * function nearest to it on the stack in most of its samples, where one
 * is: where the time comes from (slow/etag.js:25 for Node's hash update,
 * which V8, unlike Flame, shows apart from the listener it is inlined
 * into). Also `ownShare`, what this repo's functions hold together,
 * `idleShare`, the share of all samples that were (idle), and `samples`,
 * how many counted. `root` is the repository's root.
 *
 * `foldInternals`: a sample on top of Node's internal modules
 * (node:internal/…) counts for the nearest function below it that is not
 * one: Node's public API or the code that called it. Flame's default view
 * folds V8's and C++'s frames into their JavaScript caller the same way,
 * and for the same reason: a participant cannot change Node's internals,
 * only the call into them. In V8's profile an inlined function keeps its
 * own frame, so without this the hash's `update` (node:internal/crypto/hash)
 * is slow's hottest frame on Node 26, where Flame (V8's tick log, which
 * names the optimized function the time was in) gives its time to the
 * listener it was inlined into.
 */
function hottestFrames (profile, { top = 8, root = ROOT, foldInternals = false } = {}) {
  const nodes = readNodes(profile, root)
  const { functions, counts, idle } = nodes
  const nearestOwn = nearestOwnCaller(nodes)
  const shownAs = foldInternals ? nearestOutsideInternals(nodes) : (id) => id
  const byFunction = new Map()
  for (const [sampled, count] of counts) {
    const id = shownAs(sampled)
    const fn = functions.get(id)
    const tally = byFunction.get(fn) ?? { count: 0, from: new Map() }
    tally.count += count
    const caller = nearestOwn(id)
    if (caller) tally.from.set(caller, (tally.from.get(caller) ?? 0) + count)
    byFunction.set(fn, tally)
  }
  const counted = [...byFunction.values()].reduce((total, { count }) => total + count, 0)
  const ranked = [...byFunction].sort((a, b) => b[1].count - a[1].count)
  return {
    frames: ranked.slice(0, top).map(([fn, { count, from }]) => ({ ...frameOf(fn, shareOf(count, counted)), ...fromOf(fn, count, from) })),
    ownShare: shareOf(ranked.filter(([fn]) => fn.own).reduce((total, [, { count }]) => total + count, 0), counted),
    idleShare: shareOf(idle, counted + idle),
    samples: counted
  }
}

/**
 * This repo's `top` functions by the share of samples they are on the
 * stack for, themselves or what they call (a flame graph's width): the line
 * of our code that leads to the time, wherever in Node or a library the
 * time itself is spent. A function already on the stack (recursion) is
 * counted once.
 */
function ownFramesByTotal (profile, { top = 8, root = ROOT } = {}) {
  const { functions, counts, byId, rootNode } = readNodes(profile, root)
  const totals = subtreeCounts(rootNode, byId, counts)
  const counted = totals.get(rootNode.id)
  const byFunction = new Map()
  ;(function visit (node, onStack) {
    const fn = functions.get(node.id)
    let stack = onStack
    if (fn.own && !onStack.has(fn)) {
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + totals.get(node.id))
      stack = new Set(onStack).add(fn)
    }
    for (const child of childrenOf(node, byId)) visit(child, stack)
  })(rootNode, new Set())
  return [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, count]) => frameOf(fn, shareOf(count, counted)))
}

/**
 * The call tree a flame graph draws: { functionName, location, own, value
 * (samples on the stack), children }, from (root) down, the nodes of one
 * function under one caller merged, (idle) and branches with no sample
 * left out.
 */
function callTree (profile, { root = ROOT } = {}) {
  const { functions, counts, byId, rootNode } = readNodes(profile, root)
  const totals = subtreeCounts(rootNode, byId, counts)
  function grow (nodes) {
    const byFunction = new Map()
    for (const node of nodes) {
      if (totals.get(node.id) === 0) continue
      const fn = functions.get(node.id)
      const merged = byFunction.get(fn) ?? { fn, value: 0, nodes: [] }
      merged.value += totals.get(node.id)
      merged.nodes.push(...childrenOf(node, byId))
      byFunction.set(fn, merged)
    }
    return [...byFunction.values()].map(({ fn, value, nodes }) => ({ ...frameOf(fn), value, children: grow(nodes) }))
  }
  return { ...frameOf(functions.get(rootNode.id)), value: totals.get(rootNode.id), children: grow(childrenOf(rootNode, byId)) }
}

// Each node's function (one object per function, so that a Map counts
// them), each node's samples ((idle)'s apart, in `idle`), the nodes by id,
// each node's parent, and the (root) node.
function readNodes (profile, root) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const byKey = new Map()
  const functions = new Map()
  const parents = new Map()
  for (const node of profile.nodes) {
    const { functionName = '', url = '', lineNumber = -1, columnNumber = -1 } = node.callFrame
    const key = `${functionName}\0${url}\0${lineNumber}\0${columnNumber}`
    if (!byKey.has(key)) byKey.set(key, describeFunction(node.callFrame, root))
    functions.set(node.id, byKey.get(key))
    for (const child of node.children ?? []) parents.set(child, node.id)
  }
  const counts = new Map()
  let idle = 0
  for (const id of profile.samples) {
    if (!byId.has(id)) continue
    const fn = functions.get(id)
    if (fn.v8 && fn.functionName === IDLE) idle++
    else counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  const rootNode = profile.nodes.find((node) => !parents.has(node.id))
  return { functions, counts, idle, byId, parents, rootNode }
}

// For a node of a function not of this repo: the nearest of this repo's
// functions below it on the stack, or null (none, or it is ours itself).
// Remembered per node: samples name the same few hundred nodes thousands
// of times.
function nearestOwnCaller ({ functions, parents }) {
  const found = new Map()
  return function nearestOwn (id) {
    if (functions.get(id).own) return null
    if (!found.has(id)) {
      const parent = parents.get(id)
      found.set(id, parent === undefined ? null : functions.get(parent).own ? functions.get(parent) : nearestOwn(parent))
    }
    return found.get(id)
  }
}

// The node a sample on top of `id` counts for when Node's internal modules
// are folded (hottestFrames' foldInternals): `id` itself, or the nearest
// node below it whose function is not in node:internal/; `id` where every
// one below is (a timer's or an immediate's own loop, say).
function nearestOutsideInternals ({ functions, parents }) {
  const internal = (id) => functions.get(id).location.startsWith('node:internal/')
  const found = new Map()
  return function shownAs (id) {
    if (!internal(id)) return id
    if (!found.has(id)) {
      let at = parents.get(id)
      while (at !== undefined && internal(at)) at = parents.get(at)
      found.set(id, at === undefined || functions.get(at).v8 ? id : at)
    }
    return found.get(id)
  }
}

// `from` for a frame not of this repo: the caller of ours holding more than
// half of its `count` samples.
function fromOf (fn, count, callers) {
  if (fn.own) return {}
  const [caller, held] = [...callers].sort((a, b) => b[1] - a[1])[0] ?? []
  return held > count / 2 ? { from: caller.location } : {}
}

// A function as the tables print it: its name ('(anonymous)' for none), its
// location (slow/etag.js:25, its first line counted from 1;
// node:internal/stream_base_commons:122 for Node's own; [V8] for V8's
// nodes, [native] for a native function with no script), whether it is this
// repo's own code, and whether it is one of V8's nodes.
function describeFunction ({ functionName, url = '', lineNumber = -1 }, root) {
  const v8 = url === '' && V8_NODES.has(functionName)
  const file = filePath(url)
  const shown = file ? (repoPath(root, file) ?? file) : url
  const location = shown === '' ? (v8 ? '[V8]' : '[native]') : lineNumber >= 0 ? `${shown}:${lineNumber + 1}` : shown
  return { functionName: functionName || '(anonymous)', location, own: Boolean(file && ownCodePath(root, file)), v8 }
}

// The file a file: URL names, or null for any other (node:, none, or a
// file: URL of another system's path, in a profile made elsewhere).
function filePath (url) {
  if (!url.startsWith('file:')) return null
  try {
    return fileURLToPath(url)
  } catch {
    return null
  }
}

// Every node's samples with its descendants'.
function subtreeCounts (rootNode, byId, counts) {
  const totals = new Map()
  ;(function total (node) {
    let value = counts.get(node.id) ?? 0
    for (const child of childrenOf(node, byId)) value += total(child)
    totals.set(node.id, value)
    return value
  })(rootNode)
  return totals
}

function childrenOf (node, byId) {
  return (node.children ?? []).map((id) => byId.get(id)).filter(Boolean)
}

function frameOf ({ functionName, location, own }, share) {
  return share === undefined ? { functionName, location, own } : { functionName, location, share, own }
}

// A profile with no sample (a process that ended at once) has no shares.
function shareOf (part, whole) {
  return whole > 0 ? part / whole : 0
}

module.exports = { parseCpuProfile, hottestFrames, ownFramesByTotal, callTree }
