'use strict'

// A line a participant reads kept to about 100 characters where it can be: text broken at spaces, each further
// line indented under the first's text, so that a terminal of any width shows where a line goes on.

const LINE_WIDTH = 100

/**
 * `lead` (the line's start, e.g. '      hint: ') then `text`, broken at spaces so that each line stays within
 * `width` where its words allow (a word longer than that stays whole); further lines start with `indent`.
 */
function wrapLine (lead, text, { indent = ' '.repeat(lead.length), width = LINE_WIDTH } = {}) {
  const lines = []
  for (const [index, paragraph] of String(text).split('\n').entries()) {
    let line = index === 0 ? lead : indent
    let empty = true
    for (const word of paragraph.split(' ')) {
      if (!empty && line.length + 1 + word.length > width) {
        lines.push(line)
        line = indent + word
      } else {
        line += (empty ? '' : ' ') + word
      }
      empty = false
    }
    lines.push(line)
  }
  return lines.join('\n')
}

module.exports = { wrapLine, LINE_WIDTH }
