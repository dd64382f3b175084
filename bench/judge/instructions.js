'use strict'

// The instruction gates' judgement (bench:compare --meter instructions,
// and bench's --meter instructions --baseline FILE): per target, the
// windows of a base (the base commit's, or a stored run's) against the
// head's, each window a count of instructions per request
// (bench/measure/instructions.js). Pure functions, tested in
// test/bench/instruction-meter.test.js.

const { permutationPValue, shareOfAlpha, smallestPermutationP, spread } = require('./stats')
const { signedPercent } = require('../../tooling/number-text')

// The defaults of both gates: fail at +0.1 %, with a false-alarm rate of
// 0.05 split over the targets. Two processes of the same code, from trees
// at paths of different lengths, count a few hundredths of a per cent
// apart (docs/instructions.md), which one process's windows cannot show:
// the allowance, about twice the widest such gap seen, keeps that out, and
// is half the +0.2 % the gate must catch; the test below keeps a lucky
// window out.
const INSTRUCTION_DEFAULTS = { maxRegression: 0.001, alpha: 0.05 }

/**
 * A side's count: its lowest window. What disturbs a count only adds to it:
 * fixed's request path shares Node's timer code (timers' insert()) with the
 * timers that fire once a second (the Date header's cache, the server's
 * connection check); now and then one of them sends V8 back from optimized
 * code, and until it has compiled the function again the requests run
 * slower code, in one window or in several (docs/instructions.md, "Why
 * the lowest window", says why). When that happens depends on the
 * clock, not on the code. A regression moves every window, the lowest too.
 * (Work a request does only now and then, one in a thousand say, moves
 * some windows and not the lowest: the CPU gates see it.)
 */
const countOf = (windows) => Math.min(...windows)
const lowestDifference = (group, other) => countOf(group) - countOf(other)

/**
 * The verdict on each target of `targets` from `base` and `head` ({ target:
 * [instructions per request, one per window] }). A target's change is the
 * head's count (countOf: its lowest window) over the base's, minus one;
 * `pWorse` (`pBetter`) is the one-sided p-value of an exact permutation
 * test of the two sides' windows: how often a split of all the windows
 * into groups of those sizes puts the head's lowest window as far above
 * (below) the base's. With `alpha` split evenly over the targets
 * (Bonferroni) and the allowance `maxRegression` (0.001 = 0.1 %), a target
 * - REGRESSED (the run fails) when its change reaches the allowance and is
 *   significant;
 * - is 'cheaper' when its change reaches the allowance the other way and
 *   is significant;
 * - is 'within ±allowance' when its change is smaller: windows of one
 *   process agree more closely than two processes of the same code do
 *   (a few hundredths of a per cent apart), so a significant change that
 *   small says as much about the processes as about the code;
 * - else 'cannot tell' (a change beyond the allowance the windows are too
 *   spread to confirm, or too few windows for any p-value under its share).
 * Returns { alphaPerTarget, maxRegression, comparisons: [{ target, base,
 * head, change, spread, pWorse, pBetter, verdict, regressed }], failures:
 * [sentence] }: bench:compare's shape (bench/compare/verdict.js), but for
 * where the allowance applies and what a comparison carries. There the
 * rounds are pairs measured at the same time, whose interval says how
 * large a change cannot be ruled out; here each side's windows come from
 * one process, which agree more closely than two processes of the same
 * code do, so an interval from them would be too narrow to mean anything:
 * the allowance holds the change itself, and a comparison carries its
 * count and spread, not an interval.
 */
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

/**
 * A stored baseline that cannot be judged here: counted on another Node,
 * valgrind, C library or CPU, or by another meter. bench exits 3 on it
 * (bench/index.js): neither a regression (1) nor a mistyped option (2).
 */
class CannotJudgeHere extends Error {}

/**
 * Whether a stored run (`stored`: a baseline's instructions.meter) was
 * counted where this one is counted (`here`), both { node, valgrind, v8Flags,
 * notCounted, clock, protocol, libc, cpu: { host, guest } } (describeMeter's and
 * bench/measure/meter-context.js's). Each of those picks which
 * instructions run: another Node release is another V8 (even a patch
 * release moves the count), another valgrind shows the code another CPU,
 * another glibc has other string functions, another CPU (the one valgrind
 * shows the code, `cpu.guest`) other paths in glibc, OpenSSL and V8. So
 * any difference throws a CannotJudgeHere naming every one ("it was
 * counted with valgrind 3.22.0 (here 3.19.0), ..."), a field the baseline
 * does not have included. Returns notes for what does not change the
 * count: another host CPU behind the same CPU as valgrind shows it.
 */
function checkInstructionBaseline (stored, here) {
  const differences = []
  const differ = (label, before, now) => {
    if (before !== now) differences.push(`${label}${before ?? 'not recorded'} (here ${now ?? 'unknown'})`)
  }
  differ('Node ', stored.node, here.node)
  differ('valgrind ', stored.valgrind, here.valgrind)
  differ('C library ', stored.libc, here.libc)
  const guests = [stored.cpu?.guest ?? null, here.cpu?.guest ?? null]
  // Where neither side could read what valgrind shows (not glibc, or one
  // older than 2.33), the host's CPU stands in for it.
  if (guests[0] === null && guests[1] === null) differ('a CPU ', stored.cpu?.host, here.cpu?.host)
  else differ('valgrind showing the code a CPU ', guests[0], guests[1])
  if ((stored.v8Flags ?? []).join(' ') !== here.v8Flags.join(' ')) differences.push(`V8 flags "${(stored.v8Flags ?? []).join(' ')}" (here "${here.v8Flags.join(' ')}")`)
  if ((stored.notCounted ?? []).join('; ') !== here.notCounted.join('; ')) differences.push('other functions left out of the count')
  // A clock running or frozen (bench/measure/instruction-count.js, FROZEN_CLOCK)
  // decides whether what the clock drives is counted.
  differ('a clock ', stored.clock, here.clock)
  for (const key of Object.keys(here.protocol)) differ(`a protocol of ${key} `, stored.protocol?.[key], here.protocol[key])
  if (differences.length > 0) throw new CannotJudgeHere(`it was counted with ${differences.join(', ')}`)
  const notes = []
  if (stored.cpu?.host !== here.cpu?.host) notes.push(`the baseline was counted on ${stored.cpu.host}, this is ${here.cpu.host}: valgrind showed both the same CPU`)
  return notes
}

module.exports = { judgeInstructions, checkInstructionBaseline, CannotJudgeHere, countOf, INSTRUCTION_DEFAULTS }
