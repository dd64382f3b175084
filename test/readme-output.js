'use strict'

// The README shows, under each workshop step, the lines a participant sees:
// one real run's, trimmed. A test that runs the step's command holds those
// lines to its output by shape, so that another CPU's figures still pass
// and a changed sentence fails until the README follows it.

const path = require('node:path')
const { stripVTControlCharacters } = require('node:util')
const { ROOT } = require('../tooling/repo')
const { readText } = require('./read-text')

const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gm

/**
 * The lines of the README's output block (a ```text fence) that follows the
 * command block holding `command`, in the step whose heading starts with
 * `### ${step}.`. Throws when there is none, so a test cannot pass on a
 * missing block.
 */
function readmeOutput (step, command, readme = readText(path.join(ROOT, 'README.md'))) {
  const section = readme.split(new RegExp(`^### ${step}\\. `, 'm'))[1]
  if (section === undefined) throw new Error(`the README has no step "### ${step}."`)
  const body = section.split(/^##+ /m)[0]
  let lastCommand = null
  for (const [, lang, text] of body.matchAll(FENCE)) {
    if (lang === 'text' && lastCommand?.includes(command)) return text.replace(/\n$/, '').split('\n')
    if (lang !== 'text') lastCommand = text
  }
  throw new Error(`step ${step} of the README shows no output block after \`${command}\``)
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// What moves from run to run, in the order it is replaced: a quoted
// entity-tag's opaque part (eight characters or more: one run's may hold
// no digit, which the next rule needs), a random id (a folder's suffix:
// letters and digits mixed, eight or more), a number (with its thousands
// separators and decimals), a bar of # and ., and the width of the space
// between columns.
const QUOTED_TAG = /(?<=")[\x21\x23-\x7E]{8,}(?=")/g
const RANDOM_ID = /(?<![\w-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{8,}/g
const NUMBER = /\d[\d,]*(?:\.\d+)?/g
const BAR = /[#.]{4,}/g

/**
 * A shown line as a pattern: its words exact, its figures any figures.
 * `vary` lists phrases a machine may swap for one another (a verdict that
 * moves with the CPU's speed): each found in the line matches any of its set.
 */
function shapeOf (line, vary = []) {
  const slots = []
  // A slot marker holds no letter, digit, # or dot, so no later rule touches it.
  const slot = (pattern) => `\uE000${String.fromCharCode(0xE100 + slots.push(pattern) - 1)}\uE000`
  let text = line.trim()
  for (const set of vary) {
    for (const phrase of set) {
      if (text.includes(phrase)) text = text.split(phrase).join(slot(`(?:${set.map(escape).join('|')})`))
    }
  }
  text = text.replace(QUOTED_TAG, () => slot('[\\x21\\x23-\\x7E]+'))
  text = text.replace(RANDOM_ID, () => slot('[A-Za-z0-9_-]+'))
  text = text.replace(BAR, () => slot('[#.]+'))
  text = text.replace(NUMBER, () => slot('\\d[\\d,]*(?:\\.\\d+)?'))
  const pattern = escape(text).replace(/\s+/g, '\\s+').replace(/\uE000(.)\uE000/g, (_, c) => slots[c.charCodeAt(0) - 0xE100])
  return new RegExp(`^${pattern}$`)
}

/**
 * Whether `shown` (the README's lines) appear in `output`, in order, each
 * line whole by shape; blank lines in `shown` are layout and skipped.
 * Returns the first shown line that no later output line matches, or null.
 */
function unmatchedLine (shown, output, { vary } = {}) {
  const lines = stripVTControlCharacters(output).replace(/\r\n/g, '\n').split('\n').map((l) => l.trim())
  let at = 0
  for (const line of shown) {
    if (line.trim() === '') continue
    const shape = shapeOf(line, vary)
    const found = lines.findIndex((l, i) => i >= at && shape.test(l))
    if (found === -1) return line
    at = found + 1
  }
  return null
}

module.exports = { readmeOutput, shapeOf, unmatchedLine }
