'use strict'

// The contract of GET /seed/v1 that the variants, the reference servers, the checkers and the tests share.

const SEED_PATH = '/seed/v1'

const CACHE_CONTROL = 'public, max-age=120'

// The body's schema: fast-json-stringify builds from it a serializer that writes what JSON.stringify would.
const SEED_SCHEMA = {
  type: 'object',
  properties: {
    data: { type: 'string' },
    url: { type: 'string' },
    ts: { type: 'integer' }
  },
  required: ['data', 'url', 'ts']
}

function seedBody (content, url, ts) {
  return { data: content, url, ts }
}

module.exports = { SEED_PATH, CACHE_CONTROL, SEED_SCHEMA, seedBody }
