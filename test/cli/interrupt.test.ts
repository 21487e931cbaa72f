/**
 * Ctrl-C (issue 17 §2): SIGINT to a running `replay` stops it at the next
 * instant, and a running `test` at the next controller's work even inside one
 * long instant; what it printed stays whole (the last JSON line too), stderr
 * says "interrupted at +T", and the exit code is 130. The real command runs as
 * a process; the signal is sent when its first line arrives, never after a sleep.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, ensureBundle } from '../helpers/binRun';

/**
 * A scenario in `dir` whose very first instant scales a ReplicaSet to 100,000 replicas: a run is
 * inside that one long instant from the moment the header is printed.
 */
function writeScaleScenario(dir: string): void {
  cpSync(join(ROOT, 'examples', 'clusters'), join(dir, 'clusters'), { recursive: true });
  writeFileSync(
    join(dir, 'scale.yaml'),
    [
      'apiVersion: controllerstepper.io/v1alpha1',
      'kind: Scenario',
      'kubernetesVersion: "1.31"',
      'startTime: "2026-01-01T00:00:00Z"',
      'snapshot: ./clusters/three-zones.yaml',
      'events:',
      '  - {at: 0s, scale: {replicaSet: default/web-7d9f, replicas: 100000}}',
      'expect:',
      '  - {at: 10m, replicaSet: default/web-7d9f, replicas: 100000}',
      '',
    ].join('\n'),
  );
}

test('SIGINT during a long JSON replay stops it with exit 130, whole lines so far, and "interrupted at +T" on stderr', async () => {
  ensureBundle();
  // 8,000 hours: millions of monitor passes, far longer than it takes the signal to arrive
  const child = spawn(process.execPath, [BIN, 'replay', 'examples/one-node-stops.yaml', '--until', '8000h', '--format', 'json'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  let sent = false;
  child.stderr.setEncoding('utf8').on('data', (t: string) => {
    err += t;
  });
  child.stdout.setEncoding('utf8').on('data', (t: string) => {
    out += t;
    if (!sent && out.includes('\n')) {
      sent = true;
      child.kill('SIGINT');
    }
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

test('SIGINT in the middle of one long instant of `test` (a scale to 100,000 replicas) stops it there: exit 130, the summary of what ran, "interrupted at +0s"', async () => {
  ensureBundle();
  const dir = mkdtempSync(join(tmpdir(), 'cs-interrupt-'));
  try {
    writeScaleScenario(dir);
    const child = spawn(process.execPath, [BIN, 'test', 'scale.yaml'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    let sent = false;
    child.stderr.setEncoding('utf8').on('data', (t: string) => {
      err += t;
    });
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      out += t;
      if (!sent && out.includes('\n')) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    // not a timing: a run that cannot be interrupted inside the instant would go on for minutes, and is ended here
    const stuck = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    clearTimeout(stuck);
    assert.ok(sent, 'the test printed its header');
    assert.equal(signal, null, 'it exited by itself, not killed by the signal');
    assert.equal(code, 130, err);
    assert.equal(out, 'scale.yaml (Kubernetes 1.31)\n0 passed, 0 failed, not finished\n');
    const m = /^controller-stepper: interrupted at \+0s \((\d+) decision\(s\)\); the output above is the run so far\n$/.exec(err);
    assert.ok(m, err);
    assert.ok(Number(m[1]) < 100_000, `stopped inside the instant, before its 100,000 creations and bindings: ${m[1]} decisions`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The limits bite inside one long instant too (SimulationOptions.shouldYield): before, they waited
// for the instant's end, tens of thousands of decisions later.
const LIMITS: { args: string[]; says: RegExp; most: number }[] = [
  { args: ['--max-decisions', '100'], says: /the run reached --max-decisions 100;/, most: 1_000 },
  // not a timing: the instant holds far more than a second of work, and the stop comes inside it
  { args: ['--max-seconds', '1'], says: /the run took longer than --max-seconds 1;/, most: 99_999 },
];

for (const c of LIMITS)
  test(`${c.args.join(' ')} stops \`test\` inside one long instant (a scale to 100,000 replicas): exit 2, the summary, "stopped at +0s"`, async () => {
    ensureBundle();
    const dir = mkdtempSync(join(tmpdir(), 'cs-limit-'));
    try {
      writeScaleScenario(dir);
      const child = spawn(process.execPath, [BIN, 'test', 'scale.yaml', ...c.args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
      child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
      const stuck = setTimeout(() => child.kill('SIGKILL'), 120_000);
      const code = await new Promise<number | null>((resolve) => child.on('close', (n) => resolve(n)));
      clearTimeout(stuck);
      assert.equal(code, 2, err);
      assert.equal(out, 'scale.yaml (Kubernetes 1.31)\n0 passed, 0 failed, not finished\n');
      const m = /^controller-stepper: stopped at \+0s \((\d+) decision\(s\)\): (.*)\n$/.exec(err);
      assert.ok(m, err);
      assert.match(m[2], c.says);
      assert.ok(Number(m[1]) <= c.most, `stopped inside the instant: ${m[1]} decisions`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
