'use strict'

// How a page reads, counted as issue 71 counted the workshops people like
// (Rustlings 11.7 words a sentence, streams-workshop 14.2, clinic's Doctor
// walk-through 18.6): code blocks dropped, a link its
// text, headings left out, a table cell counted when it has five words or
// more, a list item or a paragraph ending a sentence where it ends. Inline
// code counts as its words; a sentence ends at . ! or ? and a space, but
// for an abbreviation (e.g., etc.).

const words = (text) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w))

/** The sentences of a Markdown page's prose, as the counts read them. */
function sentencesOf (markdown) {
  const text = markdown
    .replace(/^```[\s\S]*?^```$/gm, '\n')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[a-z][^>]*>/g, '\n')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, (_, code) => code.replace(/[.!?]/g, ''))
  const pieces = []
  let paragraph = []
  const end = () => { if (paragraph.length) pieces.push(paragraph.join(' ')); paragraph = [] }
  for (const line of text.split('\n')) {
    if (/^#{1,6} /.test(line) || line.trim() === '' || /^\|?\s*:?-{3,}/.test(line)) { end(); continue }
    if (line.trimStart().startsWith('|')) {
      end()
      for (const cell of line.split('|')) if (words(cell).length >= 5) pieces.push(cell)
      continue
    }
    if (/^\s*([-*]|\d+\.) /.test(line)) end()
    paragraph.push(line.replace(/^\s*([-*]|\d+\.) /, '').replace(/\*\*|__/g, ''))
  }
  end()
  return pieces
    .flatMap((piece) => piece.split(/(?<![\s(](?:e\.g|i\.e|etc|vs|cf)\.)(?<=[.!?])\s+/))
    .map((s) => s.trim())
    .filter((s) => words(s).length > 0)
}

/** Sentences and words, words a sentence on average, the share of 30 words or more, the longest, and semicolons per 100 words. */
function proseCounts (markdown) {
  const sentences = sentencesOf(markdown)
  const lengths = sentences.map((s) => words(s).length)
  const total = lengths.reduce((a, b) => a + b, 0)
  const semicolons = sentences.reduce((n, s) => n + (s.match(/;/g) || []).length, 0)
  const longest = Math.max(...lengths)
  return {
    sentences: sentences.length,
    words: total,
    wordsPerSentence: total / sentences.length,
    longShare: lengths.filter((n) => n >= 30).length / sentences.length,
    longest,
    longestSentence: sentences[lengths.indexOf(longest)],
    semicolonsPer100Words: semicolons / total * 100
  }
}

module.exports = { sentencesOf, proseCounts }
