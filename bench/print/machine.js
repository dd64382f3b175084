'use strict'

// Where a run ran, as every printer says it: the machine, how busy it was
// at the start, and a warning when it was busy.

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
// lags both ways, low for a load started moments ago, high for one just
// ended (docs/benchmark.md, "Reading the output").
function isBusy ({ loadAverage, usableCores, cores, cpuBusy }) {
  if (cpuBusy != null) return cpuBusy >= 0.5
  return loadAverage != null && loadAverage >= 0.5 * (usableCores ?? cores)
}

module.exports = { renderMachine, describeLoad, describeCores }
