/**
 * Ctrl-C (issue 17 §2): SIGINT to a running `replay` stops it at the next
 * instant; what it printed stays whole (the last JSON line too), stderr says
 * "interrupted at +T", and the exit code is 130. The real command runs as a
 * process; the signal is sent when its first line arrives, never after a sleep.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { BIN, ROOT, ensureBundle } from '../helpers/binRun';

test('SIGINT during a long JSON replay stops it with exit 130, whole lines so far, and "interrupted at +T" on stderr', async () => {
  ensureBundle();
  // 8,000 hours: millions of monitor passes, far longer than it takes the signal to arrive
  const child = spawn(process.execPath, [BIN, 'replay', 'examples/one-node-stops.yaml', '--until', '8000h', '--format', 'json'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  let sent = false;
  child.stderr.setEncoding('utf8').on('data', (t: string) => { err += t; });
  child.stdout.setEncoding('utf8').on('data', (t: string) => {
    out += t;
    if (!sent && out.includes('\n')) { sent = true; child.kill('SIGINT'); }
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  assert.ok(sent, 'the replay printed a first line');
  assert.equal(signal, null, 'it exited by itself, not killed by the signal');
  assert.equal(code, 130, err);
  assert.match(err, /^controller-stepper: interrupted at \+[\dhms.]+ \(\d+ decision\(s\)\); the output above is the run so far\n$/);
  assert.ok(out.endsWith('\n'), 'the last line is whole');
  const lines = out.trimEnd().split('\n');
  for (const l of lines) JSON.parse(l);
  const last = JSON.parse(lines[lines.length - 1]) as { time: string };
  assert.ok(last.time < '2026-02-01', `stopped long before the 8,000 hours: ${last.time}`);
});
