'use strict'

// What test:clinic accepts from Doctor on fixed, not judged or its CPU check alone flagged (diagnose/doctor-verdict.js): kept here so
// that npm test holds each pattern to the sentences the verdict makes (test/diagnose/clinic-analysis.test.js). A pattern with a
// space too many never matched "its load" and went unseen until a CI run took that branch.
const CPU_CHECK_ALONE = String.raw`^No issue in fixed: only Doctor's CPU check flags it, and that check misreads it\.\n {2}Doctor's headline: io issue detected\n {2}fixed used [\d.]+ of a core`
const BUSY_IN_MEDIAN_SAMPLE = String.raw` in its median sample: not a server waiting on I\/O$`
const WAITING_ON_ITS_LOAD = String.raw`, its load [\d.]+: a server waiting on its load, not on I\/O$`

// What a verdict on a busy machine says the others took (diagnose/machine.js): the share of a virtual machine's host said apart.
const OTHERS_USED = String.raw`other processes used \d+ % of the CPU during the load(?:, the virtual machine's host held back \d+ %)?`

module.exports = {
  // Doctor on fixed, not judged: the machine was busy.
  FIXED_NOT_JUDGED: new RegExp(String.raw`^Doctor did not judge fixed: the machine was busy\. Run it again on a quieter machine\.\n {2}${OTHERS_USED}\n {2}fixed got [\d.]+ of a core\n`),
  // On two cores: fixed busy in its median sample, or fixed and its load a core between them.
  FIXED_CPU_CHECK_ALONE: new RegExp(`${CPU_CHECK_ALONE}(?:${BUSY_IN_MEDIAN_SAMPLE}|${WAITING_ON_ITS_LOAD})`),
  // On one core, shared with its load: no issue, or the second.
  FIXED_ON_ONE_CORE: new RegExp(String.raw`^Doctor detects no issue in fixed\.$|${CPU_CHECK_ALONE}${WAITING_ON_ITS_LOAD}`)
}
