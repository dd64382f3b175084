'use strict'

// The headers a load sends a story server: the crypto story's Basic credentials (docs/stories.md).

// The story's account (stories/crypto/account.js): its user, and the password it takes when SEED_PASSWORD is unset.
const STORY_USER = 'seed'
const STORY_PASSWORD = 'workshop'

function basicAuthorization (user, password) {
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` }
}

const STORY_CREDENTIALS = basicAuthorization(STORY_USER, STORY_PASSWORD)
const STORY_REQUEST_HEADERS = {
  'stories/crypto/slow.js': STORY_CREDENTIALS,
  'stories/crypto/fixed.js': STORY_CREDENTIALS
}

module.exports = { STORY_REQUEST_HEADERS, STORY_USER, STORY_PASSWORD, basicAuthorization }
