'use strict'

// The hottest frames as every diagnosis prints them (Flame's, the CPU
// profile's): share of the samples, function, location, and a mark on this
// repo's own code, or, where the frame says (the CPU profile's `from`), on
// the function of this repo its time comes from.

function formatFrames (title, frames) {
  return [title, ...frames.map((f) =>
    `  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.functionName}  ${f.location}${f.own ? '   <- this repo' : ''}${f.from ? `   <- from ${f.from}` : ''}`)].join('\n')
}

module.exports = { formatFrames }
