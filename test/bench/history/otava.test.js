'use strict'

// bench/history/change-points.js held to Apache Otava on generated series:
// a regression then most of it fixed (generated-series.js), at wall time's
// noise and at the instruction meter's, and flat series, each set from a
// fixed seed. fixtures/otava-generated.json holds the change points Otava's
// own compute_change_points (apache/otava at 1ceb1537, 2026-04-22,
// otava/analysis.py: window 50, max_pvalue 0.001) found on each series,
// computed once: the series were written out by generateSeries, read by
// Otava in a Python venv (numpy 2.4.6, scipy 1.17.1), and its points kept
// with the series' seed and a hash of their values. Neither Otava's code nor
// that script is in this project (Otava is Apache-2.0).
//
// A shift is found when a change point (not a weak one, as `changes --json`
// marks them) lies within one point of it; both shifts found is the
// figure for a regression and its fix.

const t = require('tap')
const crypto = require('node:crypto')
const { describeChanges } = require('../../../bench/history/changes')
const { generateSeries, bothFound } = require('./generated-series')
const FIXTURE = require('./fixtures/otava-generated.json')

const hash = (series) => crypto.createHash('sha256')
  .update(JSON.stringify(series.map(({ values }) => values.map((value) => Number(value.toPrecision(12))))))
  .digest('hex')

// Ours as `changes --json` prints them, with no smallest magnitude (its
// default), the weak ones left out.
const ours = (values) => describeChanges(values).filter((change) => !change.weak).map((change) => change.index)

for (const set of FIXTURE.sets) {
  t.test(`${set.kind} at ${set.noise} noise, seed ${set.seed}: ${set.count} series`, async (t) => {
    const series = generateSeries(set)
    t.equal(hash(series), set.sha256, 'the series Otava was run on')
    const found = series.map(({ values }) => ours(values))
    if (set.kind === 'flat') {
      const alarms = found.filter((points) => points.length > 0).length
      const otavaAlarms = set.otava.filter((points) => points.length > 0).length
      t.ok(alarms <= otavaAlarms, `a change point in ${alarms} flat series, Otava's in ${otavaAlarms}`)
      return
    }
    const both = found.filter((points, i) => bothFound(series[i].shifts, points)).length
    const otavaBoth = set.otava.filter((points, i) => bothFound(series[i].shifts, points)).length
    t.ok(both >= otavaBoth, `both shifts found in ${both} series, by Otava in ${otavaBoth}`)
    // Where Otava finds both, so does this detector, but for a few: 8 of
    // 187 at wall noise, 10 of 196 at the meter's, when the fixture was made.
    const missed = set.otava.filter((points, i) => bothFound(series[i].shifts, points) && !bothFound(series[i].shifts, found[i])).length
    t.ok(missed <= otavaBoth / 10, `${missed} of Otava's ${otavaBoth} missed`)
  })
}
