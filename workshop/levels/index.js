'use strict'

// verify's levels, moving into a file each: for now all of them in leak.js.
module.exports = require('./leak')
