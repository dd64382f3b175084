'use strict'

// Where a server sits between fixed/ (0) and fast/ (1): docs/verify.md, "The speed verdict", says why a share.

const { median, signedRankPValue, MAX_SIGN_FLIP_ROUNDS } = require('../bench/judge/stats')

// Shares beyond ± this are no place between fixed/ and fast/: an interval that reaches one is unbounded.
const SHARE_LIMIT = 8

// Per round a = yours/fixed - 1, b = fast/fixed - 1; the share s is where a - s b centres on 0 (Hodges-Lehmann),
// its interval where neither one-sided signed-rank test rejects at `alpha`. Never a / b: b near 0 weighs one rank.
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
  const low = boundary((share) => signedRankPValue(left(share)) > alpha)
  const high = boundary((share) => signedRankPValue(left(share).map((v) => -v)) <= alpha)
  const estimate = boundary((share) => walshMedian(left(share)) <= 0)
  return { rounds, share: estimate, interval: [low, high], resolvable }
}

function walshMedian (values) {
  return median(values.flatMap((a, i) => values.slice(i).map((b) => (a + b) / 2)))
}

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
