'use strict'

// The crypto exercise's levels in climbing order, in the form of the leak's (levels/index.js): the story's
// contract, the lesson (the key derived once per credential, off the event loop), then the lever a client that
// sends ever new passwords must not get. The exercise itself is a row of workshop/exercises.js.

const LEVELS = [
  require('./contract'),
  require('./lesson'),
  require('./lever')
]

module.exports = { LEVELS }
