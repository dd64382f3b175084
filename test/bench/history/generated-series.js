'use strict'

// Series generated from a seed for the test held to Apache Otava
// (otava.test.js): a regression then most of it fixed (three levels), and
// flat series, at two noises: wall time's (normal, standard deviation 1 on
// a level of 100) and the instruction meter's measured counts
// (fixtures/meter-noise.json) drawn at random, relative to their median.
// Each level lasts 8 to 13 points, as a regression lasts a few commits.

const { generator } = require('../../../bench/history/change-points')
const NOISE = require('./fixtures/meter-noise.json')

// The regression in standard deviations of the noise: up 3, then back down
// 2.5, so half a deviation of it stays.
const UP = 3
const DOWN = 2.5

const middle = [...NOISE.counts].sort((a, b) => a - b)[Math.floor(NOISE.counts.length / 2)]
const meanOf = (values) => values.reduce((sum, value) => sum + value, 0) / values.length
const meterMean = meanOf(NOISE.counts)
// The meter's standard deviation as a share of its level: 0.019 % for the
// 20 counts of the fixture.
const METER_SPREAD = Math.sqrt(NOISE.counts.reduce((sum, count) => sum + (count - meterMean) ** 2, 0) / (NOISE.counts.length - 1)) / meterMean

const NOISES = {
  // Box-Muller: two uniform draws, one normal draw.
  wall: (random) => 100 + Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()),
  meter: (random) => NOISE.counts[Math.floor(random() * NOISE.counts.length)] / middle * 100
}
const SPREADS = { wall: 1, meter: 100 * METER_SPREAD }

/**
 * `count` series of one kind from `seed`: { values, shifts (the indices
 * where a level starts, [] for a flat series) }. kind: 'three-levels' or
 * 'flat'; noise: 'wall' or 'meter'.
 */
function generateSeries ({ seed, count, kind, noise }) {
  const random = generator(seed)
  const draw = NOISES[noise]
  const spread = SPREADS[noise]
  return Array.from({ length: count }, () => {
    const lengths = [0, 1, 2].map(() => 8 + Math.floor(random() * 6))
    const levels = kind === 'flat' ? [0, 0, 0] : [0, UP * spread, (UP - DOWN) * spread]
    const values = lengths.flatMap((length, level) => Array.from({ length }, () => draw(random) + levels[level]))
    const shifts = kind === 'flat' ? [] : [lengths[0], lengths[0] + lengths[1]]
    return { values, shifts }
  })
}

// Both shifts found: a point within one of each.
const bothFound = (shifts, indices) => shifts.every((shift) => indices.some((index) => Math.abs(index - shift) <= 1))

module.exports = { generateSeries, bothFound, METER_SPREAD, UP, DOWN }
