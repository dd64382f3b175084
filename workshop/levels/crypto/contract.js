'use strict'

// The crypto exercise's contract: what the story's server must still do after the fix. 401 with a Basic challenge
// without credentials or with wrong ones, the case study's 200 with the right ones (seed / workshop: verify starts
// the server with SEED_PASSWORD set to it).

const { SEED_PATH } = require('../../../core/seed-contract')
const { STORY_USER, STORY_PASSWORD, basicAuthorization } = require('../../../tooling/story-headers')
const { shapeProblems } = require('../contract')
const { get } = require('../http')

const title = 'Contract: Basic credentials, then GET /seed/v1'
const usage = [
  '401 with a Basic challenge without credentials, with a wrong',
  `password or user; 200 JSON {data, url, ts} as ${STORY_USER} / ${STORY_PASSWORD}`
]
const readme = 'docs/stories.md, "Story: crypto in a middleware"'
const failing = 'The contract fails, so the levels were not checked.'
const held = "Your server keeps the story's contract."

async function checkContract ({ url }) {
  const refused = async (name, headers, sent) => {
    const res = await get(url, { headers })
    const challenge = res.headers['www-authenticate'] ?? '(none)'
    return {
      name,
      pass: res.status === 401 && /^Basic /i.test(challenge),
      sent: `GET ${SEED_PATH} ${sent}`,
      seen: `${res.status}, WWW-Authenticate: ${challenge}`,
      hint: `a request without the right credentials answers 401 with a Basic challenge: unauthorized(res) in account.js (${readme})`
    }
  }
  const checks = [
    await refused('no credentials: refused with a Basic challenge', {}, 'with no Authorization header'),
    await refused('a wrong password is refused', basicAuthorization(STORY_USER, 'not-the-password'), `as ${STORY_USER} / not-the-password`),
    await refused('a wrong user is refused', basicAuthorization('someone-else', STORY_PASSWORD), `as someone-else / ${STORY_PASSWORD}`)
  ]
  const res = await get(url, { headers: basicAuthorization(STORY_USER, STORY_PASSWORD) })
  const shape = shapeProblems(res.body)
  checks.push({
    name: 'the right credentials get 200 with JSON {data, url, ts}',
    pass: res.status === 200 && shape.length === 0,
    sent: `GET ${SEED_PATH} as ${STORY_USER} / ${STORY_PASSWORD}`,
    seen: `${res.status}, ${res.body.length} bytes${shape.length > 0 ? `: ${shape.join('; ')}` : ''}`,
    hint: `the right credentials pass on to the case study's route: next() with no error (${readme})`
  })
  return { checks }
}

module.exports = { title, usage, readme, failing, held, check: checkContract }
