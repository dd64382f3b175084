'use strict'

// The hottest frames as every diagnosis prints them (Flame's, the CPU
// profile's): share of the samples, function, location, and a mark on this
// repo's own code.

function formatFrames (title, frames) {
  return [title, ...frames.map((f) =>
    `  ${(f.share * 100).toFixed(1).padStart(5)} %  ${f.functionName}  ${f.location}${f.own ? '   <- this repo' : ''}`)].join('\n')
}

module.exports = { formatFrames }
