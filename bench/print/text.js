'use strict'

// The printing half of the benchmark: the protocol, the table, the ratios
// and the per-second chart for a terminal, and the same as Markdown.

const BARS = '▁▂▃▄▅▆▇█'
// A second in which no response came: drawn, so it is not mistaken for a
// second that was not measured.
const NO_RESPONSE = '·'

const COLUMNS = [
  { title: 'target', value: (s) => s.target, align: 'left' },
  { title: 'req/s', value: (s) => integer(s.requestsPerSecond) },
  { title: 'p50 ms', value: (s) => decimal(s.latencyP50) },
  { title: 'p97.5 ms', value: (s) => decimal(s.latencyP975) },
  { title: 'p99 ms', value: (s) => decimal(s.latencyP99) },
  { title: 'MB/s', value: (s) => decimal(s.bytesPerSecond / 1e6) },
  { title: '2xx', value: (s) => integer(s.status2xx) },
  { title: '304', value: (s) => integer(s.status304) },
  { title: '503', value: (s) => integer(s.status503) },
  { title: 'other', value: (s) => integer(s.statusOther) },
  { title: 'errors', value: (s) => integer(s.errors) },
  { title: 'timeouts', value: (s) => integer(s.timeouts) },
  { title: 'peak RSS MB', value: (s) => decimal(s.peakRssBytes / 2 ** 20) },
  { title: 'CPU µs/req', value: (s) => decimal(s.cpuMicrosPerRequest) }
]

/**
 * The protocol and machine, as printed at the top of a run, with a warning
 * when the machine was busy before the run began.
 */
function renderProtocol ({ mode, protocol, machine, targets, versions = {} }) {
  const leaking = protocol.targets.filter((t) => targets[t].leaking)
  return [
    `Protocol (${mode}): ${protocol.targets.join(', ')}`,
    `  each target in a fresh process on 127.0.0.1; autocannon -c ${protocol.connections}, ` +
      `${protocol.warmup} s warm-up then ${protocol.duration} s measured, ${protocol.rounds} round(s), ` +
      'order reversed every other round',
    ...(leaking.length > 0
      ? [`  ${leaking.join(', ')} (cost grows with every request served): ${protocol.warmupRequests} requests warm-up, ` +
        `then ${protocol.requests} measured, the same count on any machine`]
      : []),
    '  figures are medians over rounds; ratios are medians of the rounds\' pairs',
    renderMachine(machine, versions)
  ].join('\n')
}

/**
 * Where a run ran: the CPU, the cores it could use, memory, platform, Node
 * and the versions the figures depend on, how busy the machine was at the
 * start (load average; CPU busy just before the run), and a warning when it
 * was busy.
 */
function renderMachine (machine, versions = {}) {
  const load = describeLoad(machine)
  return [
    `Machine: ${describeCores(machine)}, ${machine.memoryGiB} GiB, ${machine.platform}`,
    `  Node ${machine.node}${Object.entries(versions).map(([name, version]) => `, ${name} ${version}`).join('')}` +
      (load === '' ? '' : `; ${load} at the start`),
    ...(isBusy(machine)
      ? [`  warning: the machine was busy at the start (${load} on ${plural(machine.usableCores ?? machine.cores, 'core')}): ` +
        'whatever else runs takes CPU from the servers and the load alike, and the figures move more than usual; close what you can (a browser, a video call) and run again']
      : [])
  ].join('\n')
}

const plural = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`

// How busy the machine was at the start, "" where the OS says nothing.
function describeLoad ({ loadAverage, cpuBusy }) {
  return [
    ...(loadAverage == null ? [] : [`load average ${loadAverage.toFixed(2)}`]),
    ...(cpuBusy == null ? [] : [`CPU ${Math.round(cpuBusy * 100)} % busy`])
  ].join(', ')
}

// The cores, and how many of them this run could use where that is fewer
// (taskset, a container's CPU limit).
function describeCores ({ cores, cpuModel, usableCores }) {
  const usable = usableCores !== undefined && usableCores < cores ? `, ${usableCores} of them usable by the servers and the load generator` : ', all usable by the servers and the load generator'
  return `${cores} x ${cpuModel}${usableCores === undefined ? '' : usable}`
}

// Busy: half the machine's CPU time busy in the half second before the
// run; where there is no such sample, a 1-minute load average of half the
// usable cores or more. The sample decides where there is one: the average
// lags both ways, low for a load started moments ago (0.17 with cpu-hog
// started a second before), high for one just ended (1.79 with the CPU 0 %
// busy, in CI right after the clinic checks).
function isBusy ({ loadAverage, usableCores, cores, cpuBusy }) {
  if (cpuBusy != null) return cpuBusy >= 0.5
  return loadAverage != null && loadAverage >= 0.5 * (usableCores ?? cores)
}

/**
 * The summary table for a terminal: one row per target, medians over rounds.
 */
function renderTable (summaries) {
  const rows = [COLUMNS.map((c) => c.title), ...summaries.map((s) => COLUMNS.map((c) => c.value(s)))]
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  const line = (row) => row.map((cell, i) => COLUMNS[i].align === 'left' ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join('  ')
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n')
}

/**
 * The ratios with their goals and verdicts, and the baseline comparison.
 */
function renderRatios (ratios, baseline = []) {
  const lines = ratios.map((r) => {
    const goal = r.goal === null ? '' : `goal ${r.better === 'lower' ? '<=' : '>='} ${r.goal}`
    const verdict = r.holds === null ? '' : r.holds ? 'holds' : 'SHORT'
    const pairs = r.pairs.length > 1 ? `(pairs: ${r.pairs.map((p) => ratioText(p)).join(', ')})` : ''
    return `  ${r.name.padEnd(24)} ${ratioValueText(r).padStart(8)}  ${goal.padEnd(12)} ${verdict.padEnd(5)} ${pairs}`.trimEnd()
  })
  for (const b of baseline) {
    const change = `${b.change >= 0 ? '+' : ''}${(b.change * 100).toFixed(1)} %`
    const verdict = b.holds === null ? 'CANNOT TELL' : b.holds ? 'holds' : 'WORSE'
    const p = b.pValue === null ? b.note : `p = ${b.pValue.toPrecision(2)}, ${b.rounds} rounds against ${b.baselineRounds}`
    lines.push(`  baseline ${b.name.padEnd(24)} ${b.baseline.toFixed(3)} -> ${b.value.toFixed(3)} (${change}) ${verdict} (${p})`)
  }
  return ['Ratios (throughput unless marked cpu):', ...lines].join('\n')
}

/**
 * Responses per second over each target's median round (by req/s), one bar
 * per second, warm-up then measured window (split by "|"), each row scaled
 * to its own peak, so slow's decay shows whatever the level; a second
 * without a response is a dot.
 */
function renderChart (runs, targets) {
  const lines = ['Responses per second in each target\'s median round, warm-up | measured ' +
    `(each row scaled to its own peak; ${NO_RESPONSE} = none that second):`]
  const width = Math.max(...targets.map((t) => t.length))
  for (const target of targets) {
    const run = medianRound(runs.filter((r) => r.target === target))
    if (!run || run.perSecond.length === 0) continue
    const warmup = run.warmupPerSecond || []
    const peak = Math.max(...warmup, ...run.perSecond)
    const bar = (n) => n === 0 ? NO_RESPONSE : BARS[Math.floor(n / peak * (BARS.length - 1))]
    const bars = `${warmup.map(bar).join('')}|${run.perSecond.map(bar).join('')}`
    const first = run.perSecond[0]
    const last = run.perSecond[run.perSecond.length - 1]
    lines.push(`  ${target.padEnd(width)}  ${bars}  measured ${integer(first)} -> ${integer(last)} /s (round ${run.round})`)
  }
  return lines.join('\n')
}

// The round whose req/s is the median (the lower middle one for an even count).
function medianRound (own) {
  if (own.length === 0) return null
  const sorted = [...own].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)
  return sorted[Math.floor((sorted.length - 1) / 2)]
}

/**
 * The protocol, table and ratios as Markdown, for a CI summary or the docs.
 */
function renderMarkdown ({ mode, protocol, machine, summaries, ratios }) {
  const header = `| ${COLUMNS.map((c) => c.title).join(' | ')} |`
  const rule = `|${COLUMNS.map((c) => c.align === 'left' ? '---' : '---:').join('|')}|`
  const rows = summaries.map((s) => `| ${COLUMNS.map((c) => c.value(s)).join(' | ')} |`)
  const ratioRows = ratios.map((r) => `| ${r.name} | ${ratioValueText(r)} | ` +
    `${r.goal === null ? '' : `${r.better === 'lower' ? '≤' : '≥'} ${r.goal}`} | ` +
    `${r.holds === null ? '' : r.holds ? 'holds' : '**short**'} | ${r.pairs.map(ratioText).join(', ')} |`)
  return [
    `Mode \`${mode}\`: autocannon -c ${protocol.connections}, ${protocol.warmup} s warm-up, ` +
      `${protocol.duration} s measured (slow: ${protocol.warmupRequests} + ${protocol.requests} requests), ${protocol.rounds} round(s); ` +
      `${machine.cores} x ${machine.cpuModel}, Node ${machine.node}.`,
    '',
    header, rule, ...rows,
    '',
    '| ratio | value | goal | verdict | pairs |',
    '|---|---:|---|---|---|',
    ...ratioRows,
    ''
  ].join('\n')
}

function integer (n) {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a'
}

function decimal (n) {
  if (!Number.isFinite(n)) return 'n/a'
  return n >= 100 ? integer(n) : n.toFixed(n >= 10 ? 1 : 2)
}

// Three significant digits from 1 up: a ratio between 10 and 100 (cpu
// slow/fast in a short run, say) shown without decimals would be up to 5 %
// off (10.5 read "11").
function ratioText (n) {
  if (!Number.isFinite(n)) return 'n/a'
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)
}

/**
 * A ratio's value as text, with as many digits as its verdict needs: 1.997
 * against a goal of >= 2 reads "1.997", not "2.00" beside SHORT.
 */
function ratioValueText ({ value, goal, better, holds }) {
  const reads = (text) => better === 'lower' ? Number(text) <= goal : Number(text) >= goal
  let text = ratioText(value)
  if (holds === null || goal === null || !Number.isFinite(value)) return text
  for (let digits = 4; reads(text) !== holds && digits <= 8; digits++) text = value.toPrecision(digits)
  return text
}

module.exports = { renderProtocol, renderMachine, describeLoad, renderTable, renderRatios, renderChart, renderMarkdown, integer, decimal, ratioText, ratioValueText }
