'use strict'

// One clinic run in a child process of `node diagnose`, through the tool's API: clinic's
// command line starts the load through a shell, which breaks on a path with a space
// (docs/diagnose.md, "The load"). The run ends when its parent does.

const path = require('node:path')
const { promisify } = require('node:util')
const { runLoad, describeLoad } = require('./load')

const clinicRoot = () => path.dirname(require.resolve('clinic/package.json'))
const TOOL_PACKAGES = { doctor: '@clinic/doctor', flame: '@clinic/flame', bubbleprof: '@clinic/bubbleprof', heapprofiler: '@clinic/heap-profiler' }
// Lets `node --prof-process`, which 0x starts with this environment, name Node's C++ functions.
const TICK_PROCESSOR_SYMBOLS = path.join(__dirname, 'tick-processor-symbols.js')

async function runClinic ({ tool, command, load, html: writeHtml = true }, { onLoaded = () => {} } = {}) {
  const Tool = require(require.resolve(TOOL_PACKAGES[tool], { paths: [clinicRoot()] }))
  if (tool === 'flame') process.env.NODE_OPTIONS = withPreload(process.env.NODE_OPTIONS, TICK_PROCESSOR_SYMBOLS)
  const instance = new Tool({ sampleInterval: 10, detectPort: true, dest: '.' })
  instance.on('warning', (warning) => console.log(`Warning: ${warning}`))
  let loaded = null
  instance.on('port', (port, proc, done) => {
    console.log(`Loading http://127.0.0.1:${port}${load.path}: ${describeLoad(load)}`)
    runLoad(port, load).then((result) => {
      loaded = result
      onLoaded(result)
      done()
    })
  })
  const dataDir = path.resolve(await promisify(instance.collect.bind(instance))(command))
  if (!loaded) throw new Error('the server exited before it listened on PORT')
  if (loaded.ok === 0 || !writeHtml) return { dataDir, html: null, load: loaded }
  console.log('Analysing data')
  const html = `${dataDir}.html`
  await promisify(instance.visualize.bind(instance))(dataDir, html)
  return { dataDir, html, load: loaded }
}

// Quoted as NODE_OPTIONS reads quotes, so a path with a space or backslashes arrives whole.
function withPreload (nodeOptions = '', file) {
  return `${nodeOptions} --require ${JSON.stringify(file)}`.trim()
}

module.exports = { runClinic, withPreload }

if (require.main === module) {
  process.once('message', ({ type, ...job }) => {
    if (type !== 'run') return
    runClinic(job, { onLoaded: (load) => process.send({ type: 'loaded', load }) })
      .then(
        (result) => process.send({ type: 'done', ...result }),
        (err) => process.send({ type: 'failed', error: err.message }))
      .finally(() => process.disconnect())
  })
  process.once('disconnect', () => process.exit())
}
