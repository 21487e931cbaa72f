#!/usr/bin/env node
// The short fuzz CI runs with `npm test`: a fixed seed, a few hundred cases, each in two
// processes (see test/fuzz/main.ts), at low priority. Fails on any crash, hang, runaway
// memory, nondeterministic trace, step-back mismatch or broken invariant; reproducers are
// not written here (run `npm run fuzz` to collect them).
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const args = ['--import', 'tsx', 'test/fuzz/main.ts', '--seed', '17', '--count', process.env.FUZZ_COUNT ?? '200', '--seconds', '30', '--no-write'];
const r = spawnSync('nice', ['-n', '10', process.execPath, ...args], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
