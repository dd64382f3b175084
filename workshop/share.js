'use strict'

// Where a server sits between fixed/ and fast/, measured in the same
// rounds: the share of fast/'s extra cost over fixed/ that it still pays,
// 0 at fixed/, 1 at fast/. What fast/ pays and fixed/ does not is a
// serialization and hashes of the body on every request; a faster or
// slower hash moves that extra cost and a copy's alike, so the share stays
// where the code puts it, where a ratio to fixed/ shrinks toward 1 on a
// machine that hashes fast (docs/workshop.md, "The speed verdict").
// workshop/speed.js measures the rounds and words the verdict.

const { median, signedRankPValue, MAX_SIGN_FLIP_ROUNDS } = require('../bench/judge/stats')

// Shares beyond these are no place between fixed/ and fast/: an interval
// that reaches one of them is taken as unbounded.
const SHARE_LIMIT = 8

/**
 * The share of fast/'s extra CPU per request over fixed/'s that `yours`
 * pays: `fixed`, `fast` and `yours` are CPU per request, [i] from round i
 * (the three measured at the same time). Per round, each as a ratio to
 * fixed/'s (the machine's speed in that round cancels): yours pays
 * a = yours/fixed - 1 over fixed/, fast/ pays b = fast/fixed - 1, and the
 * share s is where a - s b centres on 0. Tested as bench:compare tests a
 * pair (bench/judge/stats.js, pairedChange), with the exact Wilcoxon
 * signed-rank test, on a - s b: the estimate is the s whose Hodges-Lehmann
 * estimate of a - s b is 0, and `interval` the shares neither one-sided
 * test rejects at `alpha` (a 1 - 2 alpha interval, a bound at +-Infinity
 * where the rounds never reject). No round's share is divided out, so a
 * round where fast/ and fixed/ happened to cost the same weighs one rank,
 * not an infinite share. Returns { rounds, share, interval: [low, high],
 * resolvable } (resolvable false with too few rounds for any p-value under
 * `alpha`).
 */
function shareBetween ({ fixed, fast, yours }, { alpha }) {
  const extra = []
  for (let i = 0; i < fixed.length; i++) {
    const values = [fixed[i], fast[i], yours[i]]
    if (values.every((v) => Number.isFinite(v) && v > 0)) extra.push([yours[i] / fixed[i] - 1, fast[i] / fixed[i] - 1])
  }
  const rounds = extra.length
  if (rounds > MAX_SIGN_FLIP_ROUNDS) throw new RangeError(`shareBetween: at most ${MAX_SIGN_FLIP_ROUNDS} rounds, got ${rounds}`)
  const resolvable = rounds > 0 && 2 ** -rounds < alpha
  if (!resolvable) return { rounds, share: null, interval: [-Infinity, Infinity], resolvable }
  const left = (share) => extra.map(([a, b]) => a - share * b)
  // "The share is above s" is rejected where a - s b does not lie above 0.
  const low = boundary((share) => signedRankPValue(left(share)) > alpha)
  const high = boundary((share) => signedRankPValue(left(share).map((v) => -v)) <= alpha)
  const estimate = boundary((share) => walshMedian(left(share)) <= 0)
  return { rounds, share: estimate, interval: [low, high], resolvable }
}

// The median of the pairwise means (Walsh averages) of `values`, the
// Hodges-Lehmann estimate of their centre.
function walshMedian (values) {
  return median(values.flatMap((a, i) => values.slice(i).map((b) => (a + b) / 2)))
}

// The share where `isAbove(share)` turns from false to true, found by
// bisection between -SHARE_LIMIT and SHARE_LIMIT; -Infinity when it is
// true already at the lower limit, Infinity when it is still false at the
// upper one (the rounds place the server nowhere in between).
function boundary (isAbove) {
  if (isAbove(-SHARE_LIMIT)) return -Infinity
  if (!isAbove(SHARE_LIMIT)) return Infinity
  let below = -SHARE_LIMIT
  let above = SHARE_LIMIT
  for (let step = 0; step < 50; step++) {
    const middle = (below + above) / 2
    if (isAbove(middle)) above = middle
    else below = middle
  }
  return (below + above) / 2
}

module.exports = { shareBetween, SHARE_LIMIT }
