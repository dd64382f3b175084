'use strict'

// A plain HTTP client for the tests.

require('./untapped-children')
const http = require('node:http')

/**
 * One HTTP request: resolves to { status, headers, body } with the body as
 * a string. `agent` false (the default) means a fresh connection.
 */
function request (url, { method = 'GET', headers = {}, agent = false } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => resolve({
        status: res.statusCode,
        headers: res.headers,
        body: Buffer.concat(chunks).toString()
      }))
    })
    req.on('error', reject)
    req.end()
  })
}

module.exports = { request }
