/**
 * Input from a pipe: `kubectl get … -o yaml | controller-stepper replay -`, a FIFO named as the FILE
 * (`replay <(kubectl get …)`), gzipped or not. Each command reads it as the file it names, and every
 * message still names it as given; what cannot be read is exit 2 with a message, never an internal error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BIN, ROOT, ensureBundle, runBin } from '../helpers/binRun';

const CLUSTER = readFileSync(join(ROOT, 'examples/clusters/three-zones.yaml'), 'utf8');
const SCENARIO = readFileSync(join(ROOT, 'examples/one-node-stops.yaml'), 'utf8');
const leftovers = () =>
  readdirSync(tmpdir())
    .filter((f) => f.startsWith('controller-stepper-stdin-'))
    .sort();

test('every command that reads a FILE reads - from standard input, as the same file would be read', () => {
  const before = leftovers();
  const cases: [what: string, argv: string[], input: string | Buffer, cwd: string, code: number, out: RegExp][] = [
    ['replay a snapshot', ['replay', '-', '--until', '2m'], CLUSTER, ROOT, 0, /^# -: Kubernetes 1\.31, \d+ decision/],
    ['replay a gzipped snapshot', ['replay', '-', '--until', '2m'], gzipSync(CLUSTER), ROOT, 0, /^# -: Kubernetes 1\.31/],
    ['validate', ['validate', '-'], CLUSTER, ROOT, 0, /1 file\(s\): 0 error\(s\)/],
    ['explain', ['explain', '-', '--object', 'Node/node-a1', '--until', '1m'], CLUSTER, ROOT, 0, /^Node\/node-a1, as of \+1m00s/],
    // a scenario's relative snapshot: path is looked for from the current folder
    ['test a scenario, from its folder', ['test', '-'], SCENARIO, join(ROOT, 'examples'), 0, /14 passed, 0 failed/],
  ];
  for (const [what, argv, input, cwd, code, out] of cases) {
    const r = runBin(argv, {}, input, cwd);
    assert.equal(r.code, code, `${what}: ${r.err}`);
    assert.match(r.out, out, what);
  }
  assert.deepEqual(leftovers(), before, 'the copies of standard input are removed');
});

test('a piped scenario whose snapshot is not in the current folder says where it looked, naming the input -', () => {
  const r = runBin(['replay', '-'], {}, SCENARIO, ROOT);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /^-:14:11: error file-not-found: .*relative to the current folder: the scenario came from standard input\)/);
});

test('a FIFO named as the FILE (process substitution) is read like a file', () => {
  ensureBundle();
  const r = spawnSync('bash', ['-c', `node '${BIN}' replay <(cat examples/clusters/three-zones.yaml) --until 1m; echo "exit:$?"`], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  assert.match(r.stdout, /^# \d+: Kubernetes 1\.31/, r.stderr);
  assert.match(r.stdout, /exit:0\n$/);
});

test('what cannot be read is exit 2 with a positioned message, for validate as for replay (not an internal error)', () => {
  for (const cmd of ['validate', 'replay']) {
    const r = runBin([cmd, '/dev/zero']);
    assert.equal(r.code, 2, `${cmd}: ${r.err}`);
    assert.match(
      r.err,
      /\/dev\/zero:1:1: error unreadable-file: \/dev\/zero: cannot read the file \(a character device; only regular files and folders are read\)/,
      cmd,
    );
    assert.doesNotMatch(r.err, /internal error/, cmd);
  }
});

test('an input with no object to simulate (kubectl printed nothing, an empty List, an empty folder) is exit 2, not an empty run that says ok', () => {
  const empty = mkdtempSync(join(tmpdir(), 'cs-empty-'));
  try {
    const cases: [what: string, argv: string[], input?: string][] = [
      ['nothing on standard input', ['replay', '-'], ''],
      ['an empty List', ['replay', '-'], 'apiVersion: v1\nkind: List\nitems: []\n'],
      ['an empty folder', ['replay', empty]],
      ['explain of an empty input', ['explain', '-', '--object', 'node-a1'], ''],
    ];
    for (const [what, argv, input] of cases) {
      const r = runBin(argv, {}, input);
      assert.equal(r.code, 2, `${what}: ${r.err}`);
      assert.match(r.err, /holds no Kubernetes object \(Node, Pod, ReplicaSet, DaemonSet or Lease\): nothing to simulate/, what);
      assert.equal(r.out, '', `${what}: nothing printed`);
    }
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
