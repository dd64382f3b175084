'use strict'

// The HTTP the levels speak: plain node:http, so that what verify sees is what any client sees.

const http = require('node:http')

function get (url, { method = 'GET', agent = false, headers = {}, onSent = null } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    // 'finish': the request is handed to the OS, so it is at a server on loopback.
    if (onSent) req.on('finish', onSent)
    req.end()
  })
}

// `count` requests, `concurrency` at a time over `agent`; rejects on a connection error.
async function sendRequests (url, count, { agent, concurrency, headers }) {
  let started = 0
  async function client () {
    while (started < count) {
      started++
      await get(url, { agent, headers })
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, client))
}

module.exports = { get, sendRequests }
