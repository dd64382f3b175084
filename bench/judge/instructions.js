'use strict'

// The instruction gates' verdict, per target: a base's windows of instructions per request against the head's.

const { permutationPValue, shareOfAlpha, smallestPermutationP, spread } = require('./stats')
const { signedPercent } = require('../../tooling/number-text')

// Fail at +0.1 %, at a false-alarm rate of 0.05 over all targets. The allowance keeps out the gap
// between two processes of the same code, which one process's windows cannot show (docs/instructions.md).
const INSTRUCTION_DEFAULTS = { maxRegression: 0.001, alpha: 0.05 }

// What disturbs a count only adds to it; a regression moves every window (docs/instructions.md, "Why the lowest window").
const countOf = (windows) => Math.min(...windows)
const lowestDifference = (group, other) => countOf(group) - countOf(other)

// `base` and `head` are { target: [instructions per request, one per window] }; see docs/instructions.md, "How it decides".
function judgeInstructions ({ base, head }, { targets, alpha = INSTRUCTION_DEFAULTS.alpha, maxRegression = INSTRUCTION_DEFAULTS.maxRegression }) {
  const alphaPerTarget = shareOfAlpha(alpha, targets.length)
  const comparisons = targets.map((target) => {
    const before = base[target]
    const after = head[target]
    const change = countOf(after) / countOf(before) - 1
    const pWorse = permutationPValue(after, before, lowestDifference)
    const pBetter = permutationPValue(before, after, lowestDifference)
    const resolvable = smallestPermutationP(after.length, before.length) < alphaPerTarget
    let verdict
    if (Math.abs(change) < maxRegression) verdict = `within ±${Number((maxRegression * 100).toFixed(2))} %`
    else if (resolvable && change > 0 && pWorse < alphaPerTarget) verdict = 'REGRESSION'
    else if (resolvable && change < 0 && pBetter < alphaPerTarget) verdict = 'cheaper'
    else verdict = 'cannot tell'
    return {
      target,
      base: countOf(before),
      head: countOf(after),
      change,
      spread: Math.max(spread(before), spread(after)),
      pWorse,
      pBetter,
      verdict,
      regressed: verdict === 'REGRESSION'
    }
  })
  const failures = comparisons.filter((c) => c.regressed).map((c) =>
    `${c.target}: instructions per request ${signedPercent(c.change)} (${Math.round(c.base).toLocaleString('en-US')} -> ` +
    `${Math.round(c.head).toLocaleString('en-US')}), p = ${c.pWorse.toPrecision(2)} over ${base[c.target].length} + ${head[c.target].length} windows: ` +
    `significant, and at least the ${signedPercent(maxRegression)} allowance`)
  return { alphaPerTarget, maxRegression, comparisons, failures }
}

class CannotJudgeHere extends Error {}

// Throws CannotJudgeHere unless `stored` was counted where `here` is (docs/instructions.md, "A stored baseline").
function checkInstructionBaseline (stored, here) {
  const differences = []
  const differ = (label, before, now) => {
    if (before !== now) differences.push(`${label}${before ?? 'not recorded'} (here ${now ?? 'unknown'})`)
  }
  differ('Node ', stored.node, here.node)
  differ('valgrind ', stored.valgrind, here.valgrind)
  differ('C library ', stored.libc, here.libc)
  const guests = [stored.cpu?.guest ?? null, here.cpu?.guest ?? null]
  if (guests[0] === null && guests[1] === null) differ('a CPU ', stored.cpu?.host, here.cpu?.host)
  else differ('valgrind showing the code a CPU ', guests[0], guests[1])
  if ((stored.v8Flags ?? []).join(' ') !== here.v8Flags.join(' ')) differences.push(`V8 flags "${(stored.v8Flags ?? []).join(' ')}" (here "${here.v8Flags.join(' ')}")`)
  if ((stored.notCounted ?? []).join('; ') !== here.notCounted.join('; ')) differences.push('other functions left out of the count')
  differ('a clock ', stored.clock, here.clock)
  for (const key of Object.keys(here.protocol)) differ(`a protocol of ${key} `, stored.protocol?.[key], here.protocol[key])
  if (differences.length > 0) throw new CannotJudgeHere(`it was counted with ${differences.join(', ')}`)
  const notes = []
  if (stored.cpu?.host !== here.cpu?.host) notes.push(`the baseline was counted on ${stored.cpu.host}, this is ${here.cpu.host}: valgrind showed both the same CPU`)
  return notes
}

module.exports = { judgeInstructions, checkInstructionBaseline, CannotJudgeHere, countOf, INSTRUCTION_DEFAULTS }
