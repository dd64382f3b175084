'use strict'

// The HTML pages the tools write: their frame, and text escaped for the page or as JSON inside a <script>,
// where a "</script>" in a string would end the element.

function escapeHtml (text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]))
}

function jsonForScript (value) {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

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
