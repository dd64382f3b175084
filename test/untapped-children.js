'use strict'

// tap's runner hooks every process a test starts: @tapjs/processinfo puts
// its module loader in each child's NODE_OPTIONS (through process-on-spawn,
// which tap has loaded in this process already) to credit the child's
// coverage to this test. Without coverage (CI's runs) it only records which
// files each child loaded, and it cost every node child a third of a second
// of CPU and more at start (0.6-0.9 s against 0.45-0.7 s for `node fixed`'s
// require, Node 22 and 24, AMD EPYC), over about 200 children a run. So,
// with coverage off, the children start as a user starts them. (A later tap
// without process-on-spawn: the hook stays, and only the time is lost.)
// Every test helper loads this file, so that a test file that uses any of
// them gets it; Node runs it once a process.
if (process.env._TAPJS_PROCESSINFO_COVERAGE_ === '0') {
  let onSpawn = null
  try { onSpawn = require('process-on-spawn') } catch {}
  onSpawn?.addListener((child) => {
    const options = (child.env.NODE_OPTIONS ?? '').replace(/"--(?:import|loader)=[^"]*@tapjs[/\\]processinfo[^"]*"|--(?:import|loader)=\S*@tapjs[/\\]processinfo\S*/g, '').trim()
    if (options === '') delete child.env.NODE_OPTIONS
    else child.env.NODE_OPTIONS = options
  })
}
