'use strict'

// The shape the README's output blocks are held to (test/readme-output.js):
// another run's figures, ids and column widths pass; another word, a line
// missing or lines out of order fail.

const t = require('tap')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')
const { readText } = require('../read-text')
const { readmeOutput, unmatchedLine } = require('../readme-output')

const README = [
  '### 2. Doctor',
  '',
  '```sh',
  'npm run event-loop -- slow',
  '```',
  '',
  '```text',
  'slow leaks: each response costs more CPU than the one before.',
  '  CPU a response: 2.6 ms around request 41, 16 ms around request 591',
  '   1  ####......  43 %         3.9',
  '```',
  '',
  '### 3. Flame',
  ''
].join('\n')

t.test('readmeOutput: the text block after the command, in its step', async (t) => {
  const shown = readmeOutput('2', 'npm run event-loop', README)
  t.equal(shown.length, 3)
  t.equal(shown[0], 'slow leaks: each response costs more CPU than the one before.')
  t.throws(() => readmeOutput('3', 'npm run flame', README), /no output block after `npm run flame`/)
  t.throws(() => readmeOutput('9', 'npm start', README), /no step "### 9\."/)
})

t.test('unmatchedLine: figures, ids, bars and widths move; words and order do not', async (t) => {
  const shown = readmeOutput('2', 'npm run event-loop', README)
  const other = [
    'noise before',
    'slow leaks: each response costs more CPU than the one before.',
    'CPU a response: 0.91 ms around request 41,   5.2 ms around request 1,591',
    '   1  ##########  100 %   12.75'
  ].join('\n')
  t.equal(unmatchedLine(shown, other), null, 'another machine\'s figures pass')
  t.equal(unmatchedLine(shown, other.replace('costs more', 'costs less')), shown[0], 'a changed word fails')
  t.equal(unmatchedLine(shown, other.split('\n').reverse().join('\n')), shown[1], 'lines out of order fail')
  t.equal(unmatchedLine(shown, other.replace(/^CPU.*$/m, '')), shown[1], 'a missing line fails')
  t.equal(unmatchedLine(['got 304, ETag: "MpVLI4dS40cLnQoc.mxdsj5wd"'], 'got 304, ETag: "X1b2C3d4E5f6G7h8.mxa1b2c3"'), null, 'a tag is an id')
  t.equal(unmatchedLine(['ETag: "Jd09XzRkfpud4pHb.mxdstjua"'], 'ETag: "m_-MhWRaEjcmxdsu.mxdsugdp"'), null, 'a tag with no digit too')
  t.equal(unmatchedLine(['ETag: "Jd09XzRkfpud4pHb.mxdstjua"'], 'ETag: Jd09XzRkfpud4pHb.mxdstjua'), 'ETag: "Jd09XzRkfpud4pHb.mxdstjua"', 'but not one unquoted')
  t.equal(unmatchedLine(['Doctor: slow: the event-loop delay is flagged.'], 'Doctor: slow: no delay flagged.',
    { vary: [['the event-loop delay is flagged', 'no delay flagged']] }), null, 'a verdict the CPU moves, where the test allows it')
  t.equal(unmatchedLine(['Doctor: slow: the event-loop delay is flagged.'], 'Doctor: slow: no delay flagged.'),
    'Doctor: slow: the event-loop delay is flagged.', 'and only there')
})

// Issue 71's rule for the README itself: every workshop step shows what a
// participant sees, an output block or a picture, and no block elides a
// line with an ellipsis (a bar of # and . is the event-loop table's own).
t.test('every README step shows its output, none of it elided', async (t) => {
  const readme = readText(path.join(ROOT, 'README.md'))
  const steps = readme.split(/^### /m).slice(1).filter((section) => /^\d+\. /.test(section))
  t.equal(steps.length, 8, 'eight steps')
  for (const section of steps) {
    const title = section.split('\n')[0]
    const blocks = [...section.matchAll(/^```text\n([^]*?)^```$/gm)].map((match) => match[1])
    t.ok(blocks.length > 0 || /^!\[/m.test(section), `${title}: an output block or a picture`)
    for (const block of blocks) t.notMatch(block, /…|(?:^|\s)\.\.\.(?:\s|$)/m, `${title}: no line elided`)
  }
})
