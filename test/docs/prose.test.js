'use strict'

// The README is a participant's path and docs/workshop.md the facilitator's
// page: both are read in the room, in short plain sentences. The limits are
// issue 71's, set beside the workshops people like (Rustlings' README 11.7
// words a sentence, streams-workshop 14.2, clinic's Doctor walk-through
// 18.6); ./prose.js says how a page is counted.

const t = require('tap')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { sentencesOf, proseCounts } = require('./prose')

const LIMITS = {
  'README.md': { wordsPerSentence: 15, longShare: 0.05, longest: 40, semicolonsPer100Words: 0.3 },
  'docs/workshop.md': { wordsPerSentence: 17, longShare: 0.1, longest: 45, semicolonsPer100Words: 0.3 }
}

for (const [page, limit] of Object.entries(LIMITS)) {
  t.test(`${page} reads in short sentences`, async (t) => {
    const counts = proseCounts(readText(path.join(ROOT, page)))
    t.ok(counts.sentences > 50, `${counts.sentences} sentences counted`)
    t.ok(counts.wordsPerSentence <= limit.wordsPerSentence, `${counts.wordsPerSentence.toFixed(1)} words a sentence, at most ${limit.wordsPerSentence}`)
    t.ok(counts.longShare <= limit.longShare, `${(counts.longShare * 100).toFixed(1)} % of sentences of 30 words or more, at most ${limit.longShare * 100} %`)
    t.ok(counts.longest <= limit.longest, `the longest sentence ${counts.longest} words, at most ${limit.longest}: "${counts.longestSentence}"`)
    t.ok(counts.semicolonsPer100Words <= limit.semicolonsPer100Words, `${counts.semicolonsPer100Words.toFixed(2)} semicolons per 100 words, at most ${limit.semicolonsPer100Words}`)
  })
}

t.test('the count: code blocks out, a table cell of five words in, a sentence ends at its stop', async (t) => {
  const page = [
    '# A heading is not a sentence',
    '',
    'Run it. Then read `slow/etag.js`, e.g. its line 25.',
    'fast/ stays flat; slow falls.',
    '',
    '```sh',
    'npm start',
    '```',
    '',
    '| short | a cell of five words here |',
    '|---|---|',
    '- an item',
    '- [a link](docs/x.md) ends here'
  ].join('\n')
  t.same(sentencesOf(page), ['Run it.', 'Then read slow/etagjs, e.g. its line 25.', 'fast/ stays flat; slow falls.', ' a cell of five words here ', 'an item', 'a link ends here'].map((s) => s.trim()))
  const counts = proseCounts(page)
  t.equal(counts.longest, 7)
  t.equal(counts.semicolonsPer100Words.toFixed(2), (1 / 26 * 100).toFixed(2))
})
