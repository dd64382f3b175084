'use strict'

// Text put into an HTML page this project writes (the benchmark's report,
// the CPU profile's flame graph): escaped for the page, or as JSON inside a
// <script>, where a "</script>" in a string would end the element.

function escapeHtml (text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]))
}

function jsonForScript (value) {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}

module.exports = { escapeHtml, jsonForScript }
