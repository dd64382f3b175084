'use strict'

// Every measured figure a page shows comes from docs/figures.json. A figure,
// to this test: a number with a unit a run measures in (req/s, µs, ms, s, %,
// KB, MB, GB, times, x, instructions), a ratio (x2), or a number with a decimal point. On a
// page each one is
//  - a quote of figures/catalogue.js, which figures.test.js holds to
//    docs/figures.json (`npm run figures` rewrites it);
//  - in a code span: the code's own text, or a command's (a fenced block
//    is what a command prints, and is read like the prose: an output's
//    figures are quotes, or left out as `…`);
//  - a setting, what this project's code or Node sets, held to it here
//    (./page-settings.js), or inside a part the code renders
//    (figures/rendered.js; ./rendered.test.js holds it);
//  - a release, named after its product ("curl 7.68", "Node 22.19");
//  - or a figure another's report gave, cited, not measured here: a story's
//    paragraph that starts "**The original.**" (docs/stories.md);
//  - or, in the README, a line of a workshop step's output block (```text):
//    one real run's, which test/readme-output.js holds to a run by shape,
//    its figures any CPU's.
// Anything else was typed by hand, and is named with its page and line: a
// run's figure belongs in docs/figures.json, its story in its commit.

const t = require('tap')
const fs = require('node:fs')
const path = require('node:path')
const { ROOT } = require('../../tooling/repo')
const { readRecords, quotesOn, mainLine } = require('../../figures/records')
const { SETTINGS } = require('./page-settings')

const PAGES = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md',
  // docs/figures.md is made from docs/figures.json.
  ...fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md') && name !== 'figures.md').map((name) => `docs/${name}`)]

const NUMBER = String.raw`\d+(?:,\d{3})*(?:\.\d+)?`
const FIGURE = new RegExp(String.raw`(?<![\w.:/@#^~-])${NUMBER}(?:(?: to |-|–)${NUMBER})?` +
  String.raw`(?:\s?(?:req/s|µs|ms|%|KB|MB|GB)(?!\w)|\s(?:s|times|instructions)\b|x\b)` +
  String.raw`|(?<![\w.:/@#^~-])\d+\.\d+(?![\d.\w])` +
  // A ratio as verify prints it (x2.94), not an architecture (x64, x86).
  String.raw`|(?<![\w.:/@#^~-])x(?!64\b|86\b)${NUMBER}(?![\w.])`, 'g')
const PRODUCT = /(?:curl|PowerShell|V8|express|etag|Node|Node\.js|Debian|valgrind|glibc|RFC|§|fastify|restify|npm|tap|ESLint|autocannon|clinic|Chromium|Wine|Ubuntu|Windows|macOS|Apache|nginx|lighttpd|Caddy|h2o|actionlint|HTTP|TLS|section) $/

// `text` with each of `spans` blanked out where it stands, lines kept.
function blank (text, spans) {
  let out = text
  for (const span of spans) out = out.split(span).join(span.replace(/[^\n]/g, ' '))
  return out
}

/** The figures typed by hand in `page`'s `text`: "page:line: figure" each. */
function handTyped (page, text, quotes) {
  const fenced = /^```[^]*?^```/gm
  const codeSpans = text.replace(fenced, '').match(/`[^`\n]+`/g) ?? []
  const cited = text.match(/^\*\*The original\.\*\*[^]*?(?=\n\n|(?![^]))/gm) ?? []
  const runOutputs = page === 'README.md' ? text.match(/^```text\n[^]*?^```$/gm) ?? [] : []
  const rendered = text.match(/^<!-- rendered: [^]*?<!-- \/rendered -->$/gm) ?? []
  const masked = blank(text, [...quotes, ...cited, ...runOutputs, ...rendered, ...SETTINGS.map((setting) => setting.text), ...codeSpans])
  return masked.split('\n').flatMap((line, index) => [...line.matchAll(FIGURE)]
    .filter((match) => !PRODUCT.test(line.slice(0, match.index)))
    .map((match) => `${page}:${index + 1}: ${match[0]}`))
}

t.test('every figure a page shows is a quote of docs/figures.json, code, a setting held to the code, or a release', async (t) => {
  const quotes = quotesOn(readRecords(), mainLine())
  for (const page of PAGES) {
    if (!fs.existsSync(path.join(ROOT, page))) continue
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8')
    const found = handTyped(page, text, quotes.filter((quote) => quote.page === page).map((quote) => quote.text))
    t.same(found, [], `${page}: no figure typed by hand`)
  }
})

t.test('each setting a page gives is the one the code sets, and is on a page', async (t) => {
  const pages = PAGES.filter((page) => fs.existsSync(path.join(ROOT, page))).map((page) => fs.readFileSync(path.join(ROOT, page), 'utf8'))
  for (const { text, holds } of SETTINGS) {
    t.ok(pages.some((page) => page.includes(text)), `"${text}" is on a page`)
    t.ok(holds(), `"${text}" is what the code sets`)
  }
})

t.test('the test sees a figure typed by hand, and lets a quote, code and a release through', async (t) => {
  const text = 'slow answers 312 req/s, 1.8 times fast (`--duration 10`), 2.45 in all, on curl 7.68.\nQuoted: 150 to 210 in `npm start`.\n\n' +
    '**The original.** An app went from 8.85 req/s to 475 req/s.\n\nOurs: 53x, x4 on node-linux-x64.\n'
  t.same(handTyped('PAGE.md', text, ['150 to 210 in `npm start`']), ['PAGE.md:1: 312 req/s', 'PAGE.md:1: 1.8 times', 'PAGE.md:1: 2.45', 'PAGE.md:6: 53x', 'PAGE.md:6: x4'])
  const output = '```text\nslow: 68 req/s\n```\n'
  t.same(handTyped('README.md', output, []), [], "a run's output block in the README")
  t.same(handTyped('docs/PAGE.md', output, []), ['docs/PAGE.md:2: 68 req/s'], 'on another page, typed by hand')
})
