'use strict'

// The headers a load sends a story server: the crypto story's Basic credentials (docs/stories.md).

const STORY_CREDENTIALS = { authorization: `Basic ${Buffer.from('seed:workshop').toString('base64')}` }
const STORY_REQUEST_HEADERS = {
  'stories/crypto/slow.js': STORY_CREDENTIALS,
  'stories/crypto/fixed.js': STORY_CREDENTIALS
}

module.exports = { STORY_REQUEST_HEADERS }
