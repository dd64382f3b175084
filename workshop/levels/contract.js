'use strict'

// verify's first level: the contract every variant keeps, GET /seed/v1 as
// the case study's resource, 404 for another path, 405 for another method.

const { SEED_PATH, CACHE_CONTROL } = require('../../core/seed-contract')
const { CONTENT_BYTES } = require('../../core/content')
const { get } = require('./http')

const title = 'Contract: GET /seed/v1 as the variants answer it'
const usage = [
  'GET /seed/v1 answers 200 JSON {data, url, ts} with Cache-Control;',
  'another path 404, another method 405'
]
const readme = 'README, "The workshop in steps"'
// What verify's closing lines say when this level is the first to fail, and when it holds and the next one is asked.
const failing = 'The contract fails, so the levels were not checked.'
const held = 'Your server keeps the contract.'

async function checkContract ({ url, origin }) {
  const checks = []
  const res = await get(url)
  const shape = shapeProblems(res.body)
  checks.push({
    name: `GET ${SEED_PATH} answers 200 with JSON {data, url, ts}`,
    pass: res.status === 200 && shape.length === 0,
    sent: `GET ${SEED_PATH}`,
    seen: `${res.status}, ${res.body.length} bytes${shape.length > 0 ? `: ${shape.join('; ')}` : ''}`,
    hint: `the body is seedBody(content, req.url, timestamp()) from core/seed-contract.js, as in slow/index.js: ${readme}`
  })
  checks.push({
    name: `with Cache-Control: ${CACHE_CONTROL}`,
    pass: res.headers['cache-control'] === CACHE_CONTROL,
    sent: `GET ${SEED_PATH}`,
    seen: `Cache-Control: ${res.headers['cache-control'] ?? '(none)'}`,
    hint: 'every response to /seed/v1 may be cached for two minutes: CACHE_CONTROL in core/seed-contract.js'
  })
  const missing = await get(origin + '/nope')
  checks.push({
    name: 'another path answers 404',
    pass: missing.status === 404,
    sent: 'GET /nope',
    seen: `${missing.status} ${missing.body.slice(0, 80)}`,
    hint: 'restify answers 404 for a path no route serves; keep the one route on /seed/v1'
  })
  const post = await get(url, { method: 'POST' })
  checks.push({
    name: 'another method answers 405',
    pass: post.status === 405,
    sent: `POST ${SEED_PATH}`,
    seen: `${post.status} ${post.body.slice(0, 80)}`,
    hint: 'restify answers 405 for a method the route does not register; register GET (and HEAD), nothing else'
  })
  return { checks }
}

// What is wrong with the body's shape: [] when it is {data, url, ts} as the contract has it.
function shapeProblems (text) {
  let body = null
  try {
    body = JSON.parse(text)
  } catch {}
  if (body === null || typeof body !== 'object') return ['the body is not a JSON object']
  return [
    typeof body.data === 'string' && /^[0-9a-f]+$/.test(body.data) && body.data.length === CONTENT_BYTES * 2 ? null : `data is not ${CONTENT_BYTES} bytes as hex`,
    body.url === SEED_PATH ? null : `url is ${JSON.stringify(body.url)}, not "${SEED_PATH}"`,
    Number.isInteger(body.ts) ? null : `ts is ${JSON.stringify(body.ts)}, not an integer`
  ].filter(Boolean)
}

module.exports = { title, usage, readme, failing, held, check: checkContract, checkContract, shapeProblems }
