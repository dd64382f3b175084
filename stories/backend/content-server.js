'use strict'

// The backend of the backend story, a process of its own: plain node:http
// serving the content core/content.js makes, at the seed path, with its
// version in X-Content-Version. `node stories/backend/content-server.js` runs it
// alone (PORT, default 0; SEED); the story's servers start it themselves
// (see start-backend.js) unless BACKEND_ORIGIN names one already running.

const http = require('node:http')
const { createContentSource } = require('../../core/content')

/** A node:http server answering GET <seed path> with the content and its version in X-Content-Version. */
function createContentServer ({ source = createContentSource({ seed: process.env.SEED }) } = {}) {
  return http.createServer((req, res) => {
    source.fetchContent(req.url, (err, content, version) => {
      if (err) {
        res.writeHead(err.statusCode || 500, { 'content-type': 'text/plain' })
        return res.end(err.message)
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'x-content-version': version, 'content-length': Buffer.byteLength(content) })
      res.end(content)
    })
  })
}

module.exports = { createContentServer }

if (require.main === module) {
  const server = createContentServer()
  server.listen(Number(process.env.PORT) || 0, '127.0.0.1', () => {
    const { port } = server.address()
    // To the story server that forked this process, or to a person.
    if (process.send) process.send({ type: 'backend-listening', port })
    else console.log(`content backend listening on http://127.0.0.1:${port}`)
  })
  // Its story server is gone (the IPC channel closed): nothing to serve.
  process.on('disconnect', () => process.exit(0))
  process.on('SIGTERM', () => process.exit(0))
}
