'use strict'

// A CPU profile's flame graph as one HTML file that opens from disk with no
// network: d3-flame-graph (a dependency: `npm run profile` is a workshop step) draws the call tree
// cpu-profile.js reads, in SVG, each frame's name in the page's text. The
// library and the d3 modules it needs are written into the page, so that
// nothing is fetched: its UMD build leaves d3 to a global, and the d3
// modules ship UMD builds of their own that add to that global, so each is
// put in as it is, dependencies first.
//
// The page around the graph is written here by hand: the library draws a
// chart into an element and leaves the page to its user.

const fs = require('node:fs')
const path = require('node:path')
const { escapeHtml, jsonForScript, htmlPage } = require('../tooling/html-text')

const LIBRARY = 'd3-flame-graph'
// This repo's own code stands out in one colour (the frames table's
// "<- this repo"); everything else keeps the library's warm colours.
const OWN_COLOUR = '#5b9bd5'

const PAGE_STYLE = `
  body { font: 14px system-ui, sans-serif; margin: 16px; color: #222; }
  h1 { font-size: 18px; margin: 0 0 6px; }
  p { margin: 2px 0; color: #555; }
  .controls { margin: 10px 0; }
  #details { min-height: 1.4em; font-family: monospace; }
`

/**
 * The page: `title`, the lines of `about` under it, and the flame graph of
 * `tree` (callTree's: { functionName, location, own, value, children }).
 * `scripts` are the library's files in load order (libraryScripts()).
 */
function flameGraphPage ({ title, about = [], tree, scripts = libraryScripts() }) {
  // The root is V8's (root): every sample, which the library labels with its count.
  const data = jsonForScript({ ...toChartData(tree), name: 'all' })
  const libraries = scripts.map(({ name, version, file }) =>
    `<script>/* ${name} ${version} */\n${fs.readFileSync(file, 'utf8').replace(/<\/script/gi, '<\\/script')}\n</script>`)
  return htmlPage({
    title,
    styles: [PAGE_STYLE],
    body: `<h1>${escapeHtml(title)}</h1>
${about.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p>Each box is a function, as wide as its samples on the stack, the functions it calls below it; this repo's code is blue. Click a box to zoom into it.</p>
<div class="controls">
  <input id="search" type="search" placeholder="Highlight functions whose name or file contains..." size="50">
  <button id="reset" type="button">Reset zoom</button>
</div>
<div id="chart"></div>
<div id="details"></div>
${libraries.join('\n')}
<script>
  const data = ${data}
  // The UMD build's global is the module's namespace: the chart is its
  // default export (the README's flamegraph() is the ES module's import).
  const chart = flamegraph.default()
    .width(Math.max(600, document.getElementById('chart').clientWidth))
    .cellHeight(18)
    // Callers on top, as DevTools' call tree has them: the wide boxes come
    // first, above module loading's deep and narrow stacks.
    .inverted(true)
    .minFrameSize(1)
    .setDetailsElement(document.getElementById('details'))
    .setColorMapper((d, colour) => d.highlight || !d.data.own ? colour : '${OWN_COLOUR}')
    // The library's search makes a RegExp of what is typed: plain text here.
    .setSearchMatch((d, term) => term !== '' && d.data.name.toLowerCase().includes(term.toLowerCase()))
  d3.select('#chart').datum(data).call(chart)
  document.getElementById('search').addEventListener('input', (event) => chart.search(event.target.value))
  document.getElementById('reset').addEventListener('click', () => chart.resetZoom())
</script>`
  })
}

/**
 * The files of the library and of everything it depends on, in the order a
 * page must load them (each after its dependencies): [{ name, version,
 * file }]. Each package is resolved from the one that depends on it, as
 * Node resolves it, and put in once: where npm keeps two versions of a d3
 * module, both satisfy the ranges asked for, and one global d3 holds one.
 */
function libraryScripts (name = LIBRARY, from = __dirname) {
  const scripts = []
  const seen = new Set()
  ;(function visit (name, from) {
    if (seen.has(name)) return
    seen.add(name)
    const folder = packageFolder(name, from)
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'))
    for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, folder)
    scripts.push({ name, version: manifest.version, file: path.join(folder, browserFile(manifest)) })
  })(name, from)
  return scripts
}

// The folder of the package `name` as required from `from`: above the file
// it resolves to, the first with that package's package.json (the d3
// modules' `exports` keep their package.json itself from being resolved).
function packageFolder (name, from) {
  let folder = path.dirname(require.resolve(name, { paths: [from] }))
  while (!isPackage(folder, name)) {
    const parent = path.dirname(folder)
    if (parent === folder) throw new Error(`no package.json of ${name} above ${from}`)
    folder = parent
  }
  return folder
}

function isPackage (folder, name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')).name === name
  } catch {
    return false
  }
}

// The file a browser loads: the one a CDN serves for the package (the d3
// modules name their minified UMD build so), else its main, which for
// d3-flame-graph is its UMD build.
function browserFile (manifest) {
  return manifest.unpkg ?? manifest.jsdelivr ?? manifest.main
}

// d3-flame-graph's shape: { name, value, children }, the name its label.
function toChartData ({ functionName, location, own, value, children }) {
  return { name: `${functionName} ${location}`, own, value, children: children.map(toChartData) }
}

module.exports = { flameGraphPage, libraryScripts }
