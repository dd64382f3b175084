'use strict'

// The catalogue of exercises: each a slow server a participant copies and fixes, one row here, its levels a module of
// their own. `workshop -- new EXERCISE` copies `copies` (and `with`) into a folder that runs with `node FOLDER`;
// `workshop -- list` shows `minutes` and `teaches`; verify reads the copy's MARKER to pick the row, so a copy says
// what it is. A row: name; copies, with; defaultName; minutes, teaches; levels, allHeld (verify's sentence when
// every level holds); servers (the story's own servers, checked as the exercise too); env and nodeArgs for the
// server verify starts; speed, the catalogue's targets verify places yours between; made, the lines `new` prints.

const fs = require('node:fs')
const path = require('node:path')
const { pathInside } = require('../tooling/repo')
const { theTargetIn } = require('../tooling/targets')
const { STORY_REQUEST_HEADERS, STORY_PASSWORD } = require('../tooling/story-headers')

// The copy's marker: { "exercise": NAME }. A folder without one is the leak's (copies made before there were more).
const MARKER = 'exercise.json'

const EXERCISES = [
  {
    name: 'leak',
    copies: 'slow',
    defaultName: 'mine',
    minutes: '45 to 60',
    teaches: 'a listener added on every request: fix the leak, then the ETag and 304',
    levels: require('./levels').LEVELS,
    allHeld: 'Every level holds: no leak, an ETag that belongs to its body, and 304.',
    servers: [],
    speed: null, // verify's own: beside slow, fast and fixed (speed.js)
    made: (shown) => [
      `Made ${shown}/, your copy of slow/ to fix. Git ignores it.`,
      `Find the line in ${shown}/etag.js that adds a listener on every request, and fix it.`
    ],
    does: ['starts it, as `node slow` does', 'checks it: the contract, the leak, the ETag, 304 and its speed'],
    stuck: 'Stuck? README step 5 has a hint.'
  },
  {
    name: 'crypto',
    copies: 'stories/crypto/slow.js',
    with: ['stories/crypto/account.js'],
    defaultName: 'mine-crypto',
    minutes: '20 to 30',
    teaches: 'pbkdf2Sync on every request: derive once per credential, off the event loop',
    levels: require('./levels/crypto').LEVELS,
    allHeld: 'Every level holds: the key derived once per credential, off the event loop, and no lever for an attacker.',
    servers: ['stories/crypto/slow.js', 'stories/crypto/fixed.js'],
    // verify's credentials are the story's, whatever the participant's shell holds; --expose-gc lets the probe
    // collect before it reads the heap (levels/crypto/lever.js).
    env: { SEED_PASSWORD: STORY_PASSWORD },
    nodeArgs: ['--expose-gc'],
    speed: { fixed: theTargetIn('cryptoExerciseFixed'), slow: theTargetIn('cryptoExerciseSlow'), headers: STORY_REQUEST_HEADERS['stories/crypto/slow.js'] },
    made: (shown) => [
      `Made ${shown}/, your copy of the crypto story's slow server to fix. Git ignores it.`,
      "Its middleware derives the password's key with pbkdf2Sync on every request.",
      `Find that line in ${shown}/index.js, and fix it.`
    ],
    does: ['starts it, as `node stories/crypto/slow.js` does', 'checks it: the credentials, the key derived once, its speed'],
    stuck: 'Stuck? docs/stories.md, "Story: crypto in a middleware", tells the story.'
  }
]

const DEFAULT_EXERCISE = EXERCISES[0]

function exerciseNamed (name) {
  return EXERCISES.find((exercise) => exercise.name === name) ?? null
}

// The exercise of the server at `entry`: its folder's marker, else the story's server it is, else the leak's.
function exerciseOf (entry) {
  const folder = fs.statSync(entry, { throwIfNoEntry: false })?.isDirectory() ? entry : path.dirname(entry)
  const marker = path.join(folder, MARKER)
  if (fs.existsSync(marker)) {
    const { exercise: name } = JSON.parse(fs.readFileSync(marker, 'utf8'))
    const exercise = exerciseNamed(name)
    if (!exercise) throw new Error(`${marker} names the exercise "${name}", which the workshop does not have: ${EXERCISES.map((e) => e.name).join(', ')}`)
    return exercise
  }
  const inRepo = pathInside(entry)
  return EXERCISES.find((exercise) => exercise.servers.includes(inRepo?.split(path.sep).join('/'))) ?? DEFAULT_EXERCISE
}

// A story's server file as the copy's index.js: its requires one folder up instead of two, its first comment naming the copy.
function asCopySource (source, exercise, name) {
  return source
    .replaceAll("require('../../", "require('../")
    .replace(/^\/\/ `node [^`]+`/m, `// \`node ${name}\``)
}

module.exports = { EXERCISES, DEFAULT_EXERCISE, MARKER, exerciseNamed, exerciseOf, asCopySource }
