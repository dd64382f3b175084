'use strict'

// The contract of GET /seed/v1, which every variant, the reference servers,
// the checkers and the tests share: where it is, what its body looks like,
// and how long a cache may keep it.

const SEED_PATH = '/seed/v1'

// Every response to a GET of SEED_PATH may be cached for two minutes.
const CACHE_CONTROL = 'public, max-age=120'

// The body's JSON schema, from which fast-json-stringify builds a serializer
// that writes exactly what JSON.stringify would (fixed and fastify use it).
const SEED_SCHEMA = {
  type: 'object',
  properties: {
    data: { type: 'string' },
    url: { type: 'string' },
    ts: { type: 'integer' }
  },
  required: ['data', 'url', 'ts']
}

/**
 * The body for `content` fetched for `url` at minute-clock time `ts`, as
 * an object in the schema's property order.
 */
function seedBody (content, url, ts) {
  return { data: content, url, ts }
}

module.exports = { SEED_PATH, CACHE_CONTROL, SEED_SCHEMA, seedBody }
