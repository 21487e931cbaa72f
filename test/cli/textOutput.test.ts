/**
 * The command line's text output for people (spec 4, issue 13 §5, issue 17):
 * the header gives the absolute start once and the count of hidden ticks,
 * lines fit a terminal, input text cannot drive the terminal, and an engine
 * exception is one clear line with exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeFs } from '../../src/platform/nodeFs';
import { runCliWith as run } from '../helpers/cliRun';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const EXAMPLE = 'examples/one-node-stops.yaml';
const EVIL = 'test/fixtures/cli/control-characters.yaml';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

test('the text trace has a header with the absolute start once, then times relative to it', async () => {
  const r = await run(['replay', EXAMPLE, '--until', '2m']);
  assert.equal(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.match(lines[0], /^# one-node-stops: Kubernetes 1\.31, \d+ decision\(s\); \d+ monitor-pass tick\(s\) hidden \(--ticks shows them\)$/);
  assert.equal(lines[1], '# times are relative to the start, 2026-01-01T00:00:00.000Z');
  assert.match(r.out, /\n\s*\d+\s+\+30s\s+\d+\s+world\s+KubeletStopped\s+Node\/node-a1/);
  assert.match(r.out, /\+1m05s\s+\d+\s+node-lifecycle\s+NodeStatusUnknown\s+Node\/node-a1/);
  assert.equal(r.out.match(/2026-01-01T00:00:00\.000Z/g)?.length, 1, 'the absolute start only in the header');
  // the times inside messages and checks are offsets too, as the time column is
  assert.deepEqual(r.out.match(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g), ['2026-01-01T00:00:00.000Z'], 'no clock time but the header');
  assert.match(r.out, /PodEvictionScheduled\s+Pod\/default\/toleration-sixty\s+Pod default\/toleration-sixty will be deleted at \+2m10s /);
  assert.match(r.out, /deadline=\+2m10s/);
});

test('the hidden ticks are counted, and --ticks shows exactly that many more lines', async () => {
  const hidden = await run(['replay', EXAMPLE, '--until', '2m']);
  const shown = await run(['replay', EXAMPLE, '--until', '2m', '--ticks']);
  const n = Number(/; (\d+) monitor-pass tick\(s\) hidden/.exec(hidden.out)![1]);
  assert.ok(n > 10);
  assert.equal(shown.out.split('\n').length - hidden.out.split('\n').length, n);
  assert.match(shown.out, /MonitorPass/);
  assert.doesNotMatch(shown.out, /hidden/);
});

test('on a terminal every line fits its width, and a note says --format json has them whole', async () => {
  const r = await run(['replay', EXAMPLE, '--until', '2m'], { columns: 100 });
  const lines = r.out
    .trimEnd()
    .split('\n')
    .filter((l) => !l.startsWith('#'));
  assert.ok(lines.length > 5);
  for (const l of lines) assert.ok(l.length <= 100, `${l.length}: ${l}`);
  assert.match(r.out, /# \d+ line\(s\) cut to the terminal's width; --format json has them whole\n$/);
  const piped = await run(['replay', EXAMPLE, '--until', '2m']);
  assert.ok(
    piped.out.split('\n').some((l) => l.length > 100),
    'not a terminal: whole lines',
  );
});

const evilCases: { name: string; argv: string[] }[] = [
  { name: 'replay (trace)', argv: ['replay', EVIL, '--until', '1m'] },
  { name: 'replay (state)', argv: ['replay', EVIL, '--until', '1m', '--output', 'state'] },
  { name: 'explain', argv: ['explain', EVIL, '--until', '1m', '--object', 'Node/evil-node'] },
];

for (const c of evilCases) {
  test(`${c.name} as text shows control characters from the input escaped`, async () => {
    const r = await run(c.argv);
    assert.equal(r.code, 0, r.err);
    assert.ok(!CONTROL.test(r.out), JSON.stringify(r.out.slice(0, 400)));
    assert.ok(!CONTROL.test(r.err), JSON.stringify(r.err.slice(0, 400)));
    // the trace and explain print the reason the kubelet posted; the state has no free text left to show
    if (c.name !== 'replay (state)') assert.ok(r.out.includes('Bad\\x07Bell'), r.out.slice(0, 400));
  });
}

test('an object name holding control characters is refused (exit 2), and the refusal shows them escaped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-control-'));
  try {
    const file = join(dir, 'evil-name.yaml');
    writeFileSync(file, readFileSync(EVIL, 'utf8').replace('name: "evil-node"', 'name: "evil\\e[2Jnode"'));
    const r = await run(['replay', file, '--until', '1m']);
    assert.equal(r.code, 2, r.err);
    assert.equal(r.out, '');
    assert.ok(!CONTROL.test(r.err), JSON.stringify(r.err.slice(0, 400)));
    assert.match(r.err, /invalid-name/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the JSON trace keeps the same strings exact', async () => {
  const r = await run(['replay', EVIL, '--until', '1m', '--format', 'json']);
  const decisions = r.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(decisions.some((d) => String(d.summary).includes('Bad\x07Bell')));
});

test('an exception inside the engine is one line that calls it a bug, exit 2, with the stack only in debug mode', async () => {
  // the loader turns read errors into problems; an exception from stat reaches the top like an engine bug would
  const broken = {
    ...nodeFs(),
    stat: () => {
      throw new TypeError('boom at the engine');
    },
  };
  const plain = await run(['replay', EXAMPLE], { fs: broken });
  assert.equal(plain.code, 2);
  assert.match(plain.err, /^controller-stepper: internal error \(a bug in controller-stepper, not in your input\): TypeError: boom at the engine\n/);
  assert.doesNotMatch(plain.err, /\n\s+at /, 'no stack trace');
  assert.match(plain.err, /CONTROLLER_STEPPER_DEBUG=1/);
  const debug = await run(['replay', EXAMPLE], { fs: broken, debug: true });
  assert.match(debug.err, /\n\s+at /, 'the stack when asked');
});

test('the state text shows a long zone queue as its count and first names, and nodes in natural order', async () => {
  const { code, out } = await run(['replay', 'examples/zone-large-partial.yaml', '--until', '2m', '--output', 'state']);
  assert.equal(code, 0);
  const zone = out.split('\n').find((l) => l.includes('us-east-1a'))!;
  assert.match(zone, /queued 39: (node-a\d+, ){5}… \(34 more; --format json lists them all\)$/);
  const nodes = out
    .split('\n')
    .filter((l) => /^ {2}node-/.test(l))
    .map((l) => l.trim().split(/\s+/)[0]);
  assert.deepEqual(nodes.slice(0, 11), [
    'node-a1',
    'node-a2',
    'node-a3',
    'node-a4',
    'node-a5',
    'node-a6',
    'node-a7',
    'node-a8',
    'node-a9',
    'node-a10',
    'node-a11',
  ]);
  const json = await run(['replay', 'examples/zone-large-partial.yaml', '--until', '2m', '--output', 'state', '--format', 'json']);
  assert.equal(json.code, 0);
  assert.match(json.out, /"queued":\s*\[/);
});

test('the state text names a zone of nodes without zone labels as the panel does, and JSON keeps the trace name', async () => {
  // a real kind cluster's export: its nodes have no topology labels, so they share the zone "" (GetZoneKey)
  const real = resolve(__dirname, '../../../shared/fixtures/real/sonobuoy-kind-v1.20-core_v1_nodes.json');
  const { code, out } = await run(['replay', real, '--until', '2m', '--output', 'state']);
  assert.equal(code, 0);
  const zones = out.split('\n\n')[1].split('\n');
  assert.equal(zones[0], 'Zones');
  assert.match(zones[1], /^ {2}Zone\/ \(no zone labels\) {2}Normal {2}3 nodes {2}1 not ready/);
  const json = await run(['replay', real, '--until', '2m', '--output', 'state', '--format', 'json']);
  assert.equal(json.code, 0);
  assert.match(json.out, /"zone":\s*"Zone\/"/);
});

test("test prints each expectation's time as its at: was written, an offset from the start, with the clock time beside it", async () => {
  // no startTime: the clock starts at the snapshot's latest heartbeat (23:59:58), so at: 2m is 00:01:58 on the clock
  const dir = mkdtempSync(join(tmpdir(), 'cs-test-offsets-'));
  try {
    const file = join(dir, 'offsets.yaml');
    writeFileSync(
      file,
      `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
kubernetesVersion: "1.31"
snapshot: ${resolve('examples/clusters/three-zones.yaml')}
expect:
  - {at: 2m, node: node-a1, ready: "True"}
  - {at: 2m, node: node-a1, ready: "False"}
`,
    );
    const r = await run(['test', file]);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /\n {2}ok {4}at \+2m00s \(2026-01-01T00:01:58\.000Z\): Node\/node-a1 Ready is True\n/);
    assert.match(r.out, /\n {2}FAIL {2}at \+2m00s \(2026-01-01T00:01:58\.000Z\): Node\/node-a1 Ready is False\n {8}found: Ready is True/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("explain's why-not names the zone of nodes without zone labels as the state does", async () => {
  const real = resolve(__dirname, '../../../shared/fixtures/real/sonobuoy-kind-v1.20-core_v1_nodes.json');
  const { code, out } = await run(['explain', real, '--object', 'Zone/', '--until', '1m']);
  assert.equal(code, 0);
  assert.match(out, /\n {2}Zone\/ \(no zone labels\) tainting: nothing is queued in the zone/);
});
