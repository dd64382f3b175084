'use strict'

// Where a run ran, as every printer says it, and a warning when the machine was busy at the start.

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

function describeLoad ({ loadAverage, cpuBusy }) {
  return [
    ...(loadAverage == null ? [] : [`load average ${loadAverage.toFixed(2)}`]),
    ...(cpuBusy == null ? [] : [`CPU ${Math.round(cpuBusy * 100)} % busy`])
  ].join(', ')
}

function describeCores ({ cores, cpuModel, usableCores }) {
  const usable = usableCores !== undefined && usableCores < cores ? `, ${usableCores} of them usable by the servers and the load generator` : ', all usable by the servers and the load generator'
  return `${cores} x ${cpuModel}${usableCores === undefined ? '' : usable}`
}

// The CPU sample taken just before the run decides where there is one: the load average lags
// both ways (docs/benchmark.md, "Reading the output").
function isBusy ({ loadAverage, usableCores, cores, cpuBusy }) {
  if (cpuBusy != null) return cpuBusy >= 0.5
  return loadAverage != null && loadAverage >= 0.5 * (usableCores ?? cores)
}

module.exports = { renderMachine, describeLoad, describeCores }
