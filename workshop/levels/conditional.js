'use strict'

// verify's level 3: If-None-Match answered with 304 as RFC 9110 says, by
// check:curl's checks with the real curl.

const { SEED_PATH } = require('../../core/seed-contract')
const { checkConditionalGet, CannotCheckError } = require('../../check/conditional-get')
const { abbreviate } = require('./abbreviate')
// Its hints read on in level 2's heading of the README: 304 is the same step.
const { readme } = require('./etag')

const title = 'Level 3: If-None-Match answered with 304 (RFC 9110, checked with curl)'
const usage = ['conditional GET: the RFC 9110 checks of check:curl, with curl']
const asks = [
  'Level 3 asks for 304 Not Modified when If-None-Match names the current ETag, on GET and on HEAD.',
  'README step 7 shows it with curl.'
]
const held = 'It answers If-None-Match with 304.'

async function checkConditional (server) {
  try {
    const { checks } = await checkConditionalGet(server.url)
    return {
      checks: checks.map((check) => ({
        name: check.name,
        pass: check.outcome === 'skip' ? null : check.outcome === 'pass',
        sent: abbreviate(check.sent),
        seen: abbreviate(check.outcome === 'skip' ? check.note : check.received),
        hint: check.broken.length > 0 ? `${abbreviate(check.broken.join('; '))} (${readme})` : ''
      }))
    }
  } catch (err) {
    if (!(err instanceof CannotCheckError)) throw err
    return {
      checks: [{
        name: 'conditional GET can be checked',
        pass: false,
        sent: `GET ${SEED_PATH} with curl`,
        seen: err.message,
        hint: `level 3 needs curl and a 200 with an ETag (${readme})`
      }]
    }
  }
}

module.exports = { title, usage, readme, asks, held, check: checkConditional, checkConditional }
