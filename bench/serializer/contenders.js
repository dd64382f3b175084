'use strict'

// What bench:serializer compares: two bodies, each serialized three ways.

const { promisify } = require('node:util')
const fastJson = require('fast-json-stringify')
const { SEED_PATH, SEED_SCHEMA, seedBody } = require('../../core/seed-contract')
const { createContentSource } = require('../../core/content')
const { createMinuteClock } = require('../../core/clock')

// Small enough that the per-field work outweighs copying `data`.
const SMALL_DATA_CHARS = 64

const SERIALIZERS = [
  { name: 'JSON.stringify', serialize: (body) => JSON.stringify(body) },
  { name: 'fast-json-stringify', serialize: fastJson(SEED_SCHEMA) },
  { name: 'direct string', serialize: buildDirectly }
]

function buildDirectly ({ data, url, ts }) {
  return `{"data":${JSON.stringify(data)},"url":${JSON.stringify(url)},"ts":${ts}}`
}

async function seedBodies () {
  const { fetchContent } = createContentSource()
  const content = await promisify(fetchContent)(SEED_PATH)
  const ts = createMinuteClock()()
  return [
    { id: 'fixed', label: "fixed's body", body: seedBody(content, SEED_PATH, ts) },
    { id: 'small', label: `a small body (${SMALL_DATA_CHARS} characters of data)`, body: seedBody(content.slice(0, SMALL_DATA_CHARS), SEED_PATH, ts) }
  ]
}

// Where a serializer's output is not JSON.stringify's byte for byte.
function disagreements (bodies, serializers = SERIALIZERS) {
  const [reference, ...others] = serializers
  return bodies.flatMap(({ label, body }) => {
    const expected = reference.serialize(body)
    return others.filter(({ serialize }) => serialize(body) !== expected)
      .map(({ name }) => `${name} differs from ${reference.name} on ${label}`)
  })
}

module.exports = { SERIALIZERS, SMALL_DATA_CHARS, seedBodies, disagreements, buildDirectly }
