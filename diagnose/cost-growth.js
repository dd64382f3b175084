'use strict'

// Whether a server leaks: the CPU a response costs late in a load against early, a ratio
// the machine's speed does not move (docs/node-tools.md, "Leak or merely slow").

const { median } = require('../bench/judge/stats')

// A line through the parts' costs by Sen's slope: a cost paid once makes one part dear, and a
// median does not follow it. The first part pays for the JIT's warm-up and is left out.
const PARTS = 24
// Parts long enough for this many steps of a coarse CPU clock (Windows'), and at least MIN_PARTS.
const STEPS_A_PART = 10
const MIN_PARTS = 6
const LEAK_GROWTH = 2
const RESPONSES_PER_MARK = 10
const MIN_RESPONSES = 120

// `marks`: [[responses finished, CPU µs], …] from [0, 0]. Returns { measured: false, why } or
// { measured: true, responses, early, late ({ at, cpuMicros } on the line), growth, leak }.
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
  // Where the cost grew faster than a line, the line can fall under 0: the cheapest part is its floor.
  const cheapest = Math.min(...costs.map((part) => part.cpuMicros))
  const onLine = ({ at }) => ({ at, cpuMicros: Math.max(cheapest, line(at)) })
  const early = onLine(costs[0])
  const late = onLine(costs[costs.length - 1])
  const growth = late.cpuMicros / early.cpuMicros
  return { measured: true, responses, early, late, growth, leak: growth >= LEAK_GROWTH }
}

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

// The figures' line: measured, the cost early and late on the trend; not, why not.
function describeCostGrowth (growth) {
  if (!growth.measured) return `the CPU a response costs was not measured: ${growth.why}`
  const { early, late } = growth
  return `CPU a response: ${cpuTime(early.cpuMicros)} around request ${count(early.at)}, ` +
    `${cpuTime(late.cpuMicros)} around request ${count(late.at)} (${times(growth.growth)}, on its trend)`
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
