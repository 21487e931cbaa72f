#!/usr/bin/env node
// Phase run by `npm test`: the benchmark at a small size, to prove that it
// works (issue 5), and the webview's click-to-paint measurement likewise
// (issue 14). It fails only when a measurement breaks, never on a missed
// target: speed is measured by `npm run bench`, not asserted by tests.
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const r = spawnSync('npm', ['run', 'bench', '--', '--quick'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
const w = spawnSync('npm', ['run', 'bench', '--', '--quick', '--webview', '--runs', '1', '--steps', '3'], { cwd: root, stdio: 'inherit' });
process.exit(w.status ?? 1);
