'use strict'

// The HTML pages this project writes (the benchmark's report, the CPU
// profile's flame graph): their frame, and text put into them, escaped for
// the page, or as JSON inside a <script>, where a "</script>" in a string
// would end the element.

function escapeHtml (text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]))
}

function jsonForScript (value) {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

/**
 * A self-contained page: in English, sized to the device, titled `title`
 * (text), each of `styles` (CSS) in a <style> of its own, then `body`
 * (HTML). Returns the HTML text.
 */
function htmlPage ({ title, styles, body }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${styles.map((css) => `<style>${css}</style>`).join('\n')}
</head>
<body>
${body}
</body>
</html>
`
}

module.exports = { escapeHtml, jsonForScript, htmlPage }
