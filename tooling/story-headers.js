'use strict'

// The headers a load on a story server sends with every request: the crypto
// story's servers want Basic credentials, those of its one account (seed /
// workshop, docs/stories.md, "Story: crypto in a middleware").

const STORY_CREDENTIALS = { authorization: `Basic ${Buffer.from('seed:workshop').toString('base64')}` }
const STORY_REQUEST_HEADERS = {
  'stories/crypto/slow.js': STORY_CREDENTIALS,
  'stories/crypto/fixed.js': STORY_CREDENTIALS
}

module.exports = { STORY_REQUEST_HEADERS }
