'use strict'

// Whether a server leaks: the CPU one response costs, early in a load and
// late in it. A leak (slow's listener per request) makes each response
// dearer the more have been served; a server that is merely slow costs the
// same from the first response to the last. Unlike Doctor's rule (a delay
// of 100 ms), this reading is a ratio of the server to itself, so a faster
// machine, which shortens every turn alike, does not move it. Pure: the
// marks come from event-loop-probe.js.

// The two windows compared, in shares of the load's responses: early, the
// second twelfth (past the first responses, which pay for the JIT's
// warm-up: fast's first hundreds cost 3 to 10 times its later ones); late,
// the last twelfth. A listener added per request makes a response in the
// late window cost about as many times one in the early window as it runs
// more listeners: 575 against 75 on average along slow's 600 requests.
const EARLY = [1 / 12, 2 / 12]
const LATE = [11 / 12, 1]
// Each window is cut in chunks and read as its median chunk: a garbage
// collection or an optimizing compile on a background thread (both
// counted in the process's CPU time) makes a chunk dearer, and a mark
// taken as a response finishes can fall before or after work already done
// for the next ones (a server that answers in bursts, restify's chain
// among them, finishes several in one turn): one chunk reads too cheap,
// its neighbour too dear. The median is neither; the cheapest chunk was
// the too-cheap one, and called a flat server a leak. On a CPU clock that
// moves in coarse steps (Windows' 15.6 ms ticks) a chunk of a few
// responses reads 0 or one step: there the window is read whole.
const CHUNKS = 5
const FINE_CPU_CLOCK_MICROS = 50
// A leak is a server whose late responses cost at least twice its early
// ones: slow reads several times that, a flat server about 1, less where
// its early window still pays for warm-up (docs/node-tools.md, "Leak or
// merely slow", and test/diagnose/event-loop.test.js).
const LEAK_GROWTH = 2
// Fewer responses than this say nothing about a trend: each window needs
// a mark (10 responses) at least; from 600 on, one per chunk.
const MIN_RESPONSES = 120

/**
 * `marks`: [[responses finished, CPU µs used], …] from the start of the
 * load, the first [0, 0], one every 10 responses; `clockStepMicros`, the
 * smallest step of the server's CPU clock. Returns { measured: false, why }
 * when there are too few responses; otherwise { measured: true, responses
 * (in all), early, late ({ from, to, cpuMicros: CPU µs a response in the
 * window's median chunk }), growth (late over early), leak }.
 */
function judgeCostGrowth (marks, { clockStepMicros = 1 } = {}) {
  const responses = marks.length > 0 ? marks[marks.length - 1][0] : 0
  if (responses < MIN_RESPONSES) {
    return {
      measured: false,
      why: responses === 0
        ? 'no response was seen in the server\'s own process (a cluster\'s workers, say, answer in theirs)'
        : `only ${responses.toLocaleString('en-US')} responses, fewer than the ${MIN_RESPONSES} it takes to see a trend`
    }
  }
  const chunks = clockStepMicros <= FINE_CPU_CLOCK_MICROS ? CHUNKS : 1
  const early = medianChunk(marks, EARLY.map((share) => share * responses), chunks)
  const late = medianChunk(marks, LATE.map((share) => share * responses), chunks)
  const growth = late.cpuMicros / early.cpuMicros
  return { measured: true, responses, early, late, growth, leak: growth >= LEAK_GROWTH }
}

// The window of responses from `from` to `to` (counts), cut in `chunks` at
// marks: { from, to, cpuMicros } of the window, cpuMicros its median
// chunk's CPU a response.
function medianChunk (marks, [from, to], chunks) {
  const first = marks.indexOf(markAtOrAfter(marks, from))
  const last = marks.indexOf(markAtOrAfter(marks, to))
  const parts = Math.max(1, Math.min(chunks, last - first))
  const costs = []
  for (let i = 0; i < parts; i++) {
    const start = marks[first + Math.round((last - first) * i / parts)]
    const end = marks[first + Math.round((last - first) * (i + 1) / parts)]
    if (end[0] > start[0]) costs.push((end[1] - start[1]) / (end[0] - start[0]))
  }
  costs.sort((x, y) => x - y)
  const middle = (costs.length - 1) / 2
  return { from: marks[first][0] + 1, to: marks[last][0], cpuMicros: (costs[Math.floor(middle)] + costs[Math.ceil(middle)]) / 2 }
}

function markAtOrAfter (marks, responses) {
  return marks.find(([count]) => count >= responses)
}

/**
 * The reading in a participant's words: what one response cost early in
 * the load and late in it, and how many times that is.
 */
function describeCostGrowth (growth) {
  if (!growth.measured) return `the CPU a response costs was not measured: ${growth.why}`
  const { early, late } = growth
  return `${cpuTime(early.cpuMicros)} of CPU a response over requests ${range(early)}, ` +
    `${cpuTime(late.cpuMicros)} over ${range(late)}: ${times(growth.growth)}`
}

function range ({ from, to }) {
  return `${count(from)} to ${count(to)}`
}

function count (n) {
  return n.toLocaleString('en-US')
}

function cpuTime (micros) {
  if (micros >= 1000) return `${(micros / 1000).toFixed(micros >= 10000 ? 0 : 1)} ms`
  return `${micros.toFixed(micros >= 100 ? 0 : 1)} µs`
}

function times (ratio) {
  return `${ratio.toFixed(ratio >= 10 ? 0 : 1)} times`
}

module.exports = { judgeCostGrowth, describeCostGrowth, LEAK_GROWTH }
