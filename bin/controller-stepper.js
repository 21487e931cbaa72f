#!/usr/bin/env node
'use strict';
// The command line is bundled to out/cli.js by `npm run build` (run by `npm install`).
//
// It runs in a second node with the V8 options of bin/node-options.json (bench/run.ts starts its
// children with the same), each measured in bench/README.md: a larger young generation
// (--max-semi-space-size): a long simulation at 5,000 nodes keeps hundreds of MB that all pass
// through the young generation, and fewer, larger scavenges cost it less ("The young generation").
// A smaller inlining budget set here slowed the load ("nodeopts"): the command sets it once its input
// is loaded instead (src/cli/runOptions.ts; bench/README.md "engine18").
// V8 takes them only when the process starts, so only whoever starts node can set them. Not when
// node was started with options of its own (the caller chose), when NODE_OPTIONS sets one of them,
// in the second node itself, or on Windows (a console's Ctrl-C reaches every process).
const OPTIONS = require('./node-options.json');
const AGAIN = 'CONTROLLER_STEPPER_REEXEC';
const optionsSet = (env) => OPTIONS.some((o) => env.includes(o.split('=')[0]));

if (process.execArgv.length > 0 || process.env[AGAIN] === '0' || optionsSet(process.env.NODE_OPTIONS ?? '') || process.platform === 'win32') {
  require('../out/cli.js');
} else {
  const { spawn } = require('node:child_process');
  // Its own process group, so that a terminal's Ctrl-C reaches it once, through this process: the
  // command takes a second Ctrl-C as "stop at once" (src/cli/main.ts). It reads no terminal input.
  const child = spawn(process.execPath, [...OPTIONS, __filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
    detached: true,
    env: { ...process.env, [AGAIN]: '0' },
  });
  const forward = (signal) => () => {
    child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward(signal));
  child.on('error', (e) => {
    process.stderr.write(`controller-stepper: ${e.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // ended by a signal: this process ends by the same one, as the shell expects
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    // a signal whose default is to be ignored: the status a shell gives
    process.exit(128 + (require('node:os').constants.signals[signal] ?? 0));
  });
}
