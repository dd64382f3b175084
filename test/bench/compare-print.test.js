'use strict'

// bench:compare's verdict as a participant reads it (a sentence first, then
// each target's change) and as the Markdown summary heads it, which CI posts
// on a pull request and which stays as it was. Made-up rounds, judged by the
// real judge; the real runs are in serial/bench/compare.test.js.

const t = require('tap')
const { pairsOf } = require('./bench-helper')
const { judgePairs } = require('../../bench/compare/verdict')
const { renderVerdict, renderMarkdown } = require('../../bench/compare/print')

const OPTIONS = { alpha: 0.05, maxRegression: 0.05 }
const SAME = [0.01, -0.01, 0.005, -0.005, 0.002, -0.002, 0.001, -0.001]
const COSTLIER = [0.06, 0.07, 0.05, 0.08, 0.06, 0.07, 0.05, 0.06]
const CHEAPER = [-0.1, -0.12, -0.09, -0.11, -0.1, -0.13, -0.1, -0.11]

function resultOf (changesByTarget) {
  const targets = Object.keys(changesByTarget)
  const pairs = targets.flatMap((target) => pairsOf(target, changesByTarget[target]))
  const verdict = judgePairs(pairs, { targets, ...OPTIONS })
  return {
    ...OPTIONS,
    ...verdict,
    pairs,
    base: { commit: 'a'.repeat(40), ref: 'main', why: 'the merge base with main' },
    head: { commit: 'b'.repeat(40), dirty: false },
    protocol: { targets, rounds: 8, connections: 100, warmup: 1, duration: 2 },
    machine: { cores: 2, cpuModel: 'Test CPU', node: 'v26.12.1' }
  }
}

const heading = (result) => renderMarkdown(result).split('\n')[2]

t.test('no change: the sentence, then every target\'s change', async (t) => {
  const result = resultOf({ fixed: SAME, fast: SAME })
  const lines = renderVerdict(result).split('\n')
  t.equal(lines[0], 'No regression: head costs what base costs.')
  t.match(lines[1], /^ {2}CPU per request, head against base: fixed [+-]0\.\d %, fast [+-]0\.\d %$/)
  t.equal(lines.length, 2)
  t.equal(heading(result), '**no significant change**', 'the Markdown as before')
})

t.test('an improvement: no regression, and where head costs less', async (t) => {
  const result = resultOf({ fixed: CHEAPER, fast: SAME })
  const lines = renderVerdict(result).split('\n')
  t.equal(lines[0], 'No regression beyond +5.0 %. head costs less than base in fixed.')
  t.match(lines[1], /^ {2}CPU per request, head against base: fixed -10\.\d %, fast [+-]0\.\d %$/)
  t.equal(heading(result), '**no regression beyond +5.0 % (fixed: improvement)**', 'the Markdown as before')
})

t.test('a regression: REGRESSION first, then each failure, each line kept short', async (t) => {
  const result = resultOf({ fixed: COSTLIER, fast: SAME })
  const lines = renderVerdict(result).split('\n')
  t.equal(lines[0], 'REGRESSION: head costs more CPU a request than base in fixed.')
  t.match(lines[1], /^ {2}- fixed: CPU per request \+6\.\d % \(50\.00 -> 53\.\d\d µs\)/)
  t.match(lines[lines.length - 1], /^ {2}CPU per request, head against base: fixed \+6\.\d %, fast [+-]0\.\d %$/)
  for (const line of lines) t.ok(line.length <= 100, `at most 100 characters: ${line}`)
  const markdown = renderMarkdown(result).split('\n')
  t.equal(markdown[2], '**REGRESSION**', 'the Markdown as before')
  t.equal(markdown[3], `- ${result.failures[0]}`, 'each failure whole, on its own line')
})
