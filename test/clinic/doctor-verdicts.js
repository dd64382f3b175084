'use strict'

// What test:clinic accepts from Doctor on fixed, not judged or its CPU check alone flagged (diagnose/doctor-verdict.js): kept here so
// that npm test holds each pattern to the sentences the verdict makes (test/diagnose/clinic-analysis.test.js). A pattern with a
// space too many never matched "its load" and went unseen until a CI run took that branch.
const CPU_CHECK_ALONE = String.raw`^fixed: no issue detected \(Doctor's headline, io issue detected, rests on its CPU check alone, and fixed used [\d.]+ of a core`
const BUSY_IN_MEDIAN_SAMPLE = String.raw` in its median sample: not a server waiting on I\/O\)$`
const WAITING_ON_ITS_LOAD = String.raw`, its load [\d.]+: a server waiting on its load, not on I\/O\)$`

// What a verdict on a busy machine says the others took (diagnose/machine.js): the share of a virtual machine's host said apart.
const OTHERS_USED = String.raw`other processes used \d+ % of the CPU during the load(?: and the virtual machine's host held back \d+ % of it)?`

module.exports = {
  // Doctor on fixed, not judged: the machine was busy.
  FIXED_NOT_JUDGED: new RegExp(String.raw`^fixed: not judged: the machine was busy \(${OTHERS_USED}; fixed got [\d.]+ of a core\)\. Run it again on a quieter machine\. `),
  // On two cores: fixed busy in its median sample, or fixed and its load a core between them.
  FIXED_CPU_CHECK_ALONE: new RegExp(`${CPU_CHECK_ALONE}(?:${BUSY_IN_MEDIAN_SAMPLE}|${WAITING_ON_ITS_LOAD})`),
  // On one core, shared with its load: no issue, or the second.
  FIXED_ON_ONE_CORE: new RegExp(`^fixed: no issue detected$|${CPU_CHECK_ALONE}${WAITING_ON_ITS_LOAD}`)
}
