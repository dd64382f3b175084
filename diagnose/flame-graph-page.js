'use strict'

// A CPU profile's flame graph as one HTML file that opens offline: d3-flame-graph and the d3 modules
// it needs are inlined, each UMD build as it is, dependencies first, all adding to one global d3.

const fs = require('node:fs')
const path = require('node:path')
const { escapeHtml, jsonForScript, htmlPage } = require('../tooling/html-text')

const LIBRARY = 'd3-flame-graph'
// This repo's code in one colour (the frames table's "<- this repo"); the rest keeps the library's.
const OWN_COLOUR = '#5b9bd5'

const PAGE_STYLE = `
  body { font: 14px system-ui, sans-serif; margin: 16px; color: #222; }
  h1 { font-size: 18px; margin: 0 0 6px; }
  p { margin: 2px 0; color: #555; }
  .controls { margin: 10px 0; }
  #details { min-height: 1.4em; font-family: monospace; }
`

function flameGraphPage ({ title, about = [], tree, scripts = libraryScripts() }) {
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
  // The UMD build's global is the module's namespace: the chart is its default export.
  const chart = flamegraph.default()
    .width(Math.max(600, document.getElementById('chart').clientWidth))
    .cellHeight(18)
    // Callers on top, as DevTools' call tree has them.
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

// The library's files and its dependencies', in load order, each resolved as Node does and put in once.
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

// Looks above the resolved file: the d3 modules' `exports` keep their package.json from being resolved.
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

function browserFile (manifest) {
  return manifest.unpkg ?? manifest.jsdelivr ?? manifest.main
}

function toChartData ({ functionName, location, own, value, children }) {
  return { name: `${functionName} ${location}`, own, value, children: children.map(toChartData) }
}

module.exports = { flameGraphPage, libraryScripts }
