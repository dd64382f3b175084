'use strict'

// Reads a V8 CPU profile (`node --cpu-prof`): the hottest functions by self time, this repo's
// functions by time on the stack, and a flame graph's call tree. Shares are of samples, (idle)
// apart (docs/node-tools.md, "How its frames differ from Flame's").

const { fileURLToPath } = require('node:url')
const { ROOT } = require('../tooling/repo')
const { repoPath, ownCodePath } = require('./repo-paths')

const IDLE = '(idle)'
const V8_NODES = new Set(['(root)', '(program)', IDLE, '(garbage collector)'])

function parseCpuProfile (text) {
  const profile = JSON.parse(text)
  if (!Array.isArray(profile?.nodes) || profile.nodes.length === 0 || !profile.nodes.every((node) => Number.isInteger(node?.id) && node.callFrame)) {
    throw new Error('not a CPU profile: no nodes with an id and a callFrame')
  }
  if (!Array.isArray(profile.samples)) throw new Error('not a CPU profile: no samples')
  return profile
}

// The `top` functions by self time, as the frames table prints them, with `ownShare`, `idleShare`
// and `samples` (counted). `from`: where a function not of this repo gets its time, this repo's
// function nearest below it in most samples. `foldInternals` gives a sample in node:internal/ to
// the nearest function below it that is not: a participant can change the call, not Node's internals.
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

// This repo's `top` functions by their samples on the stack (a flame graph's width): the line of
// this repo's code that leads to the time. A function already on the stack (recursion) counts once.
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

// The call tree a flame graph draws: { functionName, location, own, value, children }, one
// function's nodes under one caller merged, (idle) and branches with no sample left out.
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

// Each node's function (one object per function, so that a Map counts them), samples and parent.
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

// For a node not of this repo, the nearest function of this repo below it, or null. Remembered
// per node: samples name the same few nodes many times.
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

// Under foldInternals, the nearest node at or below `id` outside node:internal/, else `id`.
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

function fromOf (fn, count, callers) {
  if (fn.own) return {}
  const [caller, held] = [...callers].sort((a, b) => b[1] - a[1])[0] ?? []
  return held > count / 2 ? { from: caller.location } : {}
}

// A function as the tables print it: its line counted from 1 (slow/etag.js:25), or [V8] or [native].
function describeFunction ({ functionName, url = '', lineNumber = -1 }, root) {
  const v8 = url === '' && V8_NODES.has(functionName)
  const file = filePath(url)
  const shown = file ? (repoPath(root, file) ?? file) : url
  const location = shown === '' ? (v8 ? '[V8]' : '[native]') : lineNumber >= 0 ? `${shown}:${lineNumber + 1}` : shown
  return { functionName: functionName || '(anonymous)', location, own: Boolean(file && ownCodePath(root, file)), v8 }
}

// null for a URL other than file:, or for another system's path (a profile made elsewhere).
function filePath (url) {
  if (!url.startsWith('file:')) return null
  try {
    return fileURLToPath(url)
  } catch {
    return null
  }
}

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

function shareOf (part, whole) {
  return whole > 0 ? part / whole : 0
}

module.exports = { parseCpuProfile, hottestFrames, ownFramesByTotal, callTree }
