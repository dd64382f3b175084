'use strict'

// One clinic run, in a child process of `node diagnose` (index.js), through
// the tool's own API rather than clinic's command line. clinic's command
// line starts the load (`--on-port`) as a shell command string, joined with
// spaces: under a folder whose name has a space (or with node in
// `C:\Program Files`) the load never starts, clinic ignores its exit code,
// and the tool profiles an idle server as if all went well. Here the load is
// autocannon's API, started in a process of its own (load.js) once
// the tool reports the port: no shell reads any path, on any system, and
// the parent sees how many 2xx responses the load got.
//
// A child process of its own because the tools start the server in the
// current directory (where Doctor leaves its trace logs: .clinic/), and add
// SIGINT handlers to the process they run in.
//
// parent -> child  { type: 'run', tool, command, load, html }: `command`
//                  the server's argv, `load` { url path, connections,
//                  duration or amount, headers, timeLimitSeconds }, `html`
//                  whether to write the HTML report (a few seconds of CPU);
// child -> parent  { type: 'loaded', load } once the load is done (`load.cpu`
//                  how the machine's CPU was spent meanwhile: load.js's
//                  cpuDuring), then
//                  { type: 'done', dataDir, html } or { type: 'failed', error }.
// The parent gone, the run stops with it.

const path = require('node:path')
const { promisify } = require('node:util')
const { runLoad, describeLoad } = require('./load')

// The tools clinic's command line runs, from clinic's own dependencies (its
// version is pinned exactly in package.json and checked by clinic-analysis.js).
// Looked up when a tool runs: clinic is optional, and withPreload is used
// without it.
const clinicRoot = () => path.dirname(require.resolve('clinic/package.json'))
const TOOL_PACKAGES = { doctor: '@clinic/doctor', flame: '@clinic/flame', bubbleprof: '@clinic/bubbleprof', heapprofiler: '@clinic/heap-profiler' }
// Flame's tick log is turned into frames by `node --prof-process`, which 0x
// starts with this process's environment: this preload lets it name Node's
// own C++ functions (it does nothing in the other processes that inherit it).
const TICK_PROCESSOR_SYMBOLS = path.join(__dirname, 'tick-processor-symbols.js')

/**
 * Run clinic `tool` on the server `command` starts, loading it once it
 * listens. Resolves to { dataDir, html, load }; `html` is null when the load
 * got no 2xx response (there is nothing to show, and the parent says so) or
 * when it was not asked for.
 */
async function runClinic ({ tool, command, load, html: writeHtml = true }, { onLoaded = () => {} } = {}) {
  const Tool = require(require.resolve(TOOL_PACKAGES[tool], { paths: [clinicRoot()] }))
  if (tool === 'flame') process.env.NODE_OPTIONS = withPreload(process.env.NODE_OPTIONS, TICK_PROCESSOR_SYMBOLS)
  // The settings clinic's command line gives every tool by default.
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

// NODE_OPTIONS with `--require file` added: quoted as NODE_OPTIONS reads
// quotes (a backslash escapes the next character), so that a path with a
// space or Windows' backslashes arrives whole.
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
  // The parent gone (its time limit, Ctrl-C, a crash): nothing is left to
  // report to, and the server this run started must not serve on.
  process.once('disconnect', () => process.exit())
}
