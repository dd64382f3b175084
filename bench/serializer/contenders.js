'use strict'

// What bench:serializer compares: the two bodies (fixed's, exactly as it
// serves it, and one of the same shape with a small `data`) and the three
// ways to serialize them, each a row.

const { promisify } = require('node:util')
const fastJson = require('fast-json-stringify')
const { SEED_PATH, SEED_SCHEMA, seedBody } = require('../../core/seed-contract')
const { createContentSource } = require('../../core/content')
const { createMinuteClock } = require('../../core/clock')

// Small enough that the per-field work (the object walk, the three
// property names, the integer) outweighs copying `data`.
const SMALL_DATA_CHARS = 64

/**
 * The serializers, in the order a round runs them: JSON.stringify (what
 * slow/ and fast/ hash per request), fast-json-stringify built from the
 * body's schema (what fixed sends), and the case study's other advice,
 * the string built directly with only the strings escaped.
 */
const SERIALIZERS = [
  { name: 'JSON.stringify', serialize: (body) => JSON.stringify(body) },
  { name: 'fast-json-stringify', serialize: fastJson(SEED_SCHEMA) },
  { name: 'direct string', serialize: buildDirectly }
]

// The schema's property order and types, written out: a string is escaped
// by JSON.stringify, the integer `ts` needs no escaping.
function buildDirectly ({ data, url, ts }) {
  return `{"data":${JSON.stringify(data)},"url":${JSON.stringify(url)},"ts":${ts}}`
}

/**
 * The bodies: `fixed`, fixed's body as it serves it (the content source's
 * 5000 random bytes as hex, its URL, the minute clock's ts), and `small`,
 * the same with `data` cut to SMALL_DATA_CHARS characters. Each is
 * { id, label, body }.
 */
async function seedBodies () {
  const { fetchContent } = createContentSource()
  const content = await promisify(fetchContent)(SEED_PATH)
  const ts = createMinuteClock()()
  return [
    { id: 'fixed', label: "fixed's body", body: seedBody(content, SEED_PATH, ts) },
    { id: 'small', label: `a small body (${SMALL_DATA_CHARS} characters of data)`, body: seedBody(content.slice(0, SMALL_DATA_CHARS), SEED_PATH, ts) }
  ]
}

/**
 * Where the serializers disagree: one line for each body on which a
 * serializer's output is not byte for byte JSON.stringify's. Empty when
 * they all agree, as they must for the timings to compare like with like.
 */
function disagreements (bodies, serializers = SERIALIZERS) {
  const [reference, ...others] = serializers
  return bodies.flatMap(({ label, body }) => {
    const expected = reference.serialize(body)
    return others.filter(({ serialize }) => serialize(body) !== expected)
      .map(({ name }) => `${name} differs from ${reference.name} on ${label}`)
  })
}

module.exports = { SERIALIZERS, SMALL_DATA_CHARS, seedBodies, disagreements, buildDirectly }
