'use strict'

// Whether a server leaks: the CPU one response costs, early in a load and
// late in it. A leak (slow's listener per request) makes each response
// dearer the more have been served; a server that is merely slow costs the
// same from the first response to the last. Unlike Doctor's rule (a delay
// of 100 ms), this reading is a ratio of the server to itself, so a faster
// machine, which shortens every turn alike, does not move it. Pure: the
// marks come from event-loop-probe.js.

const { median } = require('../bench/judge/stats')

// The load is cut in parts, each read as the CPU a response cost in it,
// and a line drawn through them with Sen's slope, the median of the slopes
// between every two parts: a cost paid once (V8's optimizing compiler
// reaching restify's hot code thousands of responses in, a collection, a
// busier second) makes one part dear, and a median does not follow one
// part. The first part pays for the JIT's warm-up and is left out.
const PARTS = 24
// On a CPU clock that moves in coarse steps (Windows' 15.6 ms ticks) a
// part that used little CPU reads 0 or a step: there each part is made
// long enough to hold this many steps, in fewer parts, and a load too
// short for that many is not judged.
const STEPS_A_PART = 10
const MIN_PARTS = 6
// A leak is a server whose late responses cost at least twice its early
// ones: slow reads several times that, a flat server about 1, less where
// its early parts still pay for warm-up (docs/node-tools.md, "Leak or
// merely slow", and test/diagnose/event-loop.test.js).
const LEAK_GROWTH = 2
// A part needs a mark at least (the probe takes one every 10 responses),
// and fewer responses than this say nothing about a trend.
const RESPONSES_PER_MARK = 10
const MIN_RESPONSES = 120

/**
 * `marks`: [[responses finished, CPU µs used], …] from the start of the
 * load, the first [0, 0], one every 10 responses; `clockStepMicros`, the
 * smallest step of the server's CPU clock. Returns { measured: false, why }
 * when there are too few responses or too little CPU to read; otherwise
 * { measured: true, responses (in all), early, late ({ at, cpuMicros }: the
 * CPU µs a response on the line at the middle of its first part and of its
 * last), growth (late over early), leak }.
 */
function judgeCostGrowth (marks, { clockStepMicros = 1 } = {}) {
  const [responses, cpuMicros] = marks.length > 0 ? marks[marks.length - 1] : [0, 0]
  if (responses < MIN_RESPONSES) {
    return {
      measured: false,
      why: responses === 0
        ? 'no response was seen in the server\'s own process (a cluster\'s workers, say, answer in theirs)'
        : `only ${responses.toLocaleString('en-US')} responses, fewer than the ${MIN_RESPONSES} it takes to see a trend`
    }
  }
  const parts = Math.min(PARTS, Math.floor(responses / RESPONSES_PER_MARK), Math.floor(cpuMicros / (STEPS_A_PART * clockStepMicros)))
  if (parts < MIN_PARTS) {
    return {
      measured: false,
      why: `the server's CPU clock moves in steps of ${cpuTime(clockStepMicros)}, and the load used ${cpuTime(cpuMicros)} of CPU: too little to see a trend`
    }
  }
  const costs = partCosts(marks, parts).slice(1)
  const line = senLine(costs)
  // Where the cost grew faster than a line, the line can fall under what
  // any part cost, even under 0: the cheapest part is its floor.
  const cheapest = Math.min(...costs.map((part) => part.cpuMicros))
  const onLine = ({ at }) => ({ at, cpuMicros: Math.max(cheapest, line(at)) })
  const early = onLine(costs[0])
  const late = onLine(costs[costs.length - 1])
  const growth = late.cpuMicros / early.cpuMicros
  return { measured: true, responses, early, late, growth, leak: growth >= LEAK_GROWTH }
}

// The load cut in `parts` at marks: [{ at (its middle response), cpuMicros
// (CPU µs a response in it) }, …].
function partCosts (marks, parts) {
  const responses = marks[marks.length - 1][0]
  const markAt = (share) => marks.find(([count]) => count >= share * responses)
  const costs = []
  for (let i = 0; i < parts; i++) {
    const [startCount, startMicros] = markAt(i / parts)
    const [endCount, endMicros] = markAt((i + 1) / parts)
    if (endCount === startCount) continue
    costs.push({ at: Math.round((startCount + 1 + endCount) / 2), cpuMicros: (endMicros - startMicros) / (endCount - startCount) })
  }
  return costs
}

// Sen's line through points { at, cpuMicros }: its slope the median of the
// slopes between every two, through the median of what each point leaves
// over the slope. Returns the line as a function of the response count.
function senLine (points) {
  const slopes = []
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      slopes.push((points[j].cpuMicros - points[i].cpuMicros) / (points[j].at - points[i].at))
    }
  }
  const slope = median(slopes)
  const intercept = median(points.map((point) => point.cpuMicros - slope * point.at))
  return (responses) => intercept + slope * responses
}

/**
 * The reading in a participant's words: what one response cost early in
 * the load and late in it, on the line through it, and how many times that
 * is.
 */
function describeCostGrowth (growth) {
  if (!growth.measured) return `the CPU a response costs was not measured: ${growth.why}`
  const { early, late } = growth
  return `${cpuTime(early.cpuMicros)} of CPU a response around request ${count(early.at)}, ` +
    `${cpuTime(late.cpuMicros)} around request ${count(late.at)}, on its trend: ${times(growth.growth)}`
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
