'use strict'

// `npm run bench:serializer -- [--rounds N] [--batch-ms MS] [--json FILE]`:
// times JSON.stringify, fast-json-stringify and a directly built string on
// fixed's body and a small one (contenders.js, rounds.js, verdict.js).

const { runAsProcess, parseCommandLine, numberOption } = require('../../tooling/command')
const { writeJson } = require('../../tooling/json-file')
const { describeMachineAtStart, describeVersions } = require('../measure/machine')
const { SERIALIZERS, seedBodies, disagreements } = require('./contenders')
const { measureRounds, SLICE_MS, WARMUP_ROUNDS } = require('./rounds')
const { judgeBody, REFERENCE } = require('./verdict')
const { renderSetting, renderProtocol, renderBody } = require('./print')

const DEFAULTS = { rounds: 30, batchMs: 60 }
// The serializer each verdict weighs JSON.stringify against: fixed's.
const CONTENDER = 'fast-json-stringify'

const USAGE = `Usage: npm run bench:serializer -- [--rounds N] [--batch-ms MS] [--json FILE]

Times three ways to serialize the /seed/v1 body on this Node, in one
process: JSON.stringify(body) (what slow/ and fast/ hash per request),
fast-json-stringify built from the body's schema (what fixed sends), and
the string built directly (a template string, JSON.stringify of the
strings only). On two bodies: fixed's as it serves it (10 000 hex
characters of data) and the same shape with 64 characters of data. First
it checks that all three write the same bytes for both. In every round
the serializers take turns of a quarter of a millisecond, so the
machine's ups and downs fall on all three, and a round's figure is the
median of a serializer's turns, so a turn another process interrupted
falls out; it prints each one's ns per serialization (the median over the
rounds), JSON.stringify's time over each other's with the min-max over
rounds, and per body which of JSON.stringify and fast-json-stringify is
faster, or that the rounds' spread holds both. 10 to 20 s with the
defaults, the longer on a busy machine.

Options:
  --rounds N     rounds (default ${DEFAULTS.rounds})
  --batch-ms MS  about how long each serializer runs per body per round,
                 in its turns (default ${DEFAULTS.batchMs})
  --json FILE    also write the figures as JSON: node, v8, cpu, and per
                 body (fixed, small) each serializer's ns, \`ratio\` (JSON.stringify
                 / fast-json-stringify: median, min, max, rounds), every
                 ratio, and the verdict
Exit codes: 0 measured, 1 the serializers disagree or the run failed, 2 bad options.
`

async function main (argv, { stdout }) {
  const { values } = parseCommandLine(argv, {
    rounds: { type: 'string' },
    'batch-ms': { type: 'string' },
    json: { type: 'string' }
  })
  const rounds = numberOption('rounds', values.rounds, DEFAULTS.rounds, { min: 1, integer: true })
  const batchMs = numberOption('batch-ms', values['batch-ms'], DEFAULTS.batchMs, { min: 0.1 })
  const print = (text) => stdout.write(text + '\n')

  const bodies = await seedBodies()
  const wrong = disagreements(bodies)
  if (wrong.length > 0) throw new Error(`the serializers do not write the same JSON: ${wrong.join('; ')}`)

  const machine = await describeMachineAtStart()
  const setting = { machine, v8: process.versions.v8, versions: describeVersions() }
  const protocol = { rounds, batchMs, sliceMs: Math.min(SLICE_MS, batchMs), warmupRounds: WARMUP_ROUNDS }
  print(renderSetting(setting))
  print(renderProtocol(protocol))

  const measured = measureRounds({ bodies, serializers: SERIALIZERS, rounds, batchMs })
  const judged = measured.map((entry, index) => ({
    bytes: Buffer.byteLength(JSON.stringify(bodies[index].body)),
    ...judgeBody(entry, { serializers: SERIALIZERS, contender: CONTENDER })
  }))
  for (const body of judged) print('\n' + renderBody(body))

  if (values.json) {
    writeJson(values.json, resultOf({ ...setting, protocol, judged }))
    print(`\nFigures: ${values.json}`)
  }
  return 0
}

function resultOf ({ machine, v8, versions, protocol, judged }) {
  return {
    node: machine.node,
    v8,
    cpu: machine.cpuModel,
    machine,
    versions,
    protocol,
    bodies: Object.fromEntries(judged.map(({ id, label, bytes, iterations, ns, ratios, verdict }) => {
      const byName = Object.fromEntries(ratios.map(({ of, over, median, min, max, rounds }) => [`${of} / ${over}`, { median, min, max, rounds }]))
      // `ratio` is the verdict's, for npm run figures to read without naming the serializers.
      return [id, { label, bytes, iterations, ns, ratio: byName[`${REFERENCE} / ${CONTENDER}`], ratios: byName, verdict }]
    }))
  }
}

const command = { name: 'bench:serializer', usage: USAGE, main }

module.exports = { command }

if (require.main === module) runAsProcess(command)
