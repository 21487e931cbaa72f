import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cliRun';

const EXAMPLE = 'examples/one-node-stops.yaml';

test('replay prints a readable trace with the world event and the controller decisions', async () => {
  const r = await runCli('replay', EXAMPLE, '--until', '2m');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /KubeletStopped\s+Node\/node-a1/);
  assert.match(r.out, /NodeStatusUnknown\s+Node\/node-a1/);
  assert.match(r.out, /TaintAdded\s+Node\/node-a1\s+Added taint node\.kubernetes\.io\/unreachable:NoExecute/);
});

test('the JSON trace is byte-identical across runs and has the fields of spec 2.1 in order', async () => {
  const a = await runCli('replay', EXAMPLE, '--format', 'json', '--until', '7m');
  const b = await runCli('replay', EXAMPLE, '--format', 'json', '--until', '7m');
  assert.equal(a.code, 0, a.err);
  assert.equal(a.out, b.out);
  const lines = a.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(lines.length > 10);
  assert.deepEqual(Object.keys(lines[0]).slice(0, 11), [
    'seq',
    'time',
    'pass',
    'controller',
    'action',
    'object',
    'summary',
    'because',
    'causes',
    'machine',
    'source',
  ]);
  lines.forEach((d, i) => assert.equal(d.seq, lines[0].seq + i));
});

test('--output state prints the zones and the objects as a kind: List', async () => {
  const r = await runCli('replay', EXAMPLE, '--output', 'state', '--format', 'json', '--until', '7m');
  assert.equal(r.code, 0, r.err);
  const state = JSON.parse(r.out);
  assert.equal(state.objects.kind, 'List');
  assert.ok(state.zones.some((z: { zone: string }) => z.zone === 'Zone/us-east-1/us-east-1a'));
  const names = state.objects.items.filter((o: { kind: string }) => o.kind === 'Pod').map((o: { metadata: { name: string } }) => o.metadata.name);
  assert.ok(!names.includes('toleration-unset'), 'an evicted pod is absent from the state');
  assert.ok(names.includes('toleration-forever'));
});

test('--output both prints one object with the state and the trace', async () => {
  const r = await runCli('replay', EXAMPLE, '--output', 'both', '--format', 'json', '--steps', '3');
  assert.equal(r.code, 0, r.err);
  const both = JSON.parse(r.out);
  assert.ok(Array.isArray(both.trace));
  assert.equal(both.state.objects.kind, 'List');
});

test('exit codes: 2 for bad usage and unreadable input', async () => {
  const cases: [string[], number, RegExp][] = [
    [[], 2, /Usage/],
    [['frobnicate'], 2, /unknown command "frobnicate"/],
    [['replay'], 2, /exactly one FILE/],
    [['replay', 'no/such/file.yaml'], 2, /cannot read no\/such\/file\.yaml/],
    [['replay', EXAMPLE, '--until', 'soon'], 2, /--until wants a duration/],
    [['explain', EXAMPLE], 2, /needs --object/],
    [['explain', EXAMPLE, '--object', 'deployment/web'], 2, /--object is Node\/NAME/],
    [['test'], 2, /one or more scenario FILEs/],
  ];
  for (const [argv, code, message] of cases) {
    const r = await runCli(...argv);
    assert.equal(r.code, code, argv.join(' '));
    assert.match(r.err, message, argv.join(' '));
  }
});

test('explain follows an eviction back to the kubelet that stopped', async () => {
  const r = await runCli('explain', EXAMPLE, '--object', 'Pod/default/toleration-unset', '--until', '3m');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /PodEvicted/);
  assert.match(r.out, /caused by:[\s\S]*KubeletStopped[\s\S]*NodeStatusUnknown[\s\S]*TaintAdded/);
});

test('explain says why a pod that tolerates the taint forever was not evicted', async () => {
  const r = await runCli('explain', EXAMPLE, '--object', 'Pod/default/toleration-forever', '--until', '10m');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Why not/);
  assert.match(r.out, /forever|infinite|no tolerationSeconds/i);
});

test('generate is deterministic for a seed and differs for another', async () => {
  const a = await runCli('generate', '--nodes', '6', '--pods-per-node', '3', '--zones', '2', '--seed', '7');
  const b = await runCli('generate', '--nodes', '6', '--pods-per-node', '3', '--zones', '2', '--seed', '7');
  const c = await runCli('generate', '--nodes', '6', '--pods-per-node', '3', '--zones', '2', '--seed', '8');
  assert.equal(a.code, 0, a.err);
  assert.equal(a.out, b.out);
  assert.notEqual(a.out, c.out);
  const list = JSON.parse(a.out);
  assert.equal(list.items.filter((o: { kind: string }) => o.kind === 'Node').length, 6);
});

test('generate --outage writes a scenario whose zone loses its kubelets', async () => {
  const r = await runCli('generate', '--nodes', '6', '--pods-per-node', '2', '--zones', '3', '--outage', '1:60s:30m', '--format', 'yaml');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /kind: Scenario/);
  assert.match(r.out, /kubelet: stop/);
});

test('generate --out writes the cluster and a scenario that replays', async () => {
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const dir = mkdtempSync('/tmp/cs-generate-');
  const g = await runCli('generate', '--nodes', '6', '--pods-per-node', '3', '--zones', '3', '--outage', '1:60s:30m', '--detail', 'lean', '--out', dir);
  assert.equal(g.code, 0, g.err);
  assert.match(g.out, /wrote .*cluster\.json: 6 nodes, 18 pods/);
  assert.match(readFileSync(`${dir}/scenario.yaml`, 'utf8'), /snapshot: \.\/cluster\.json/);
  const r = await runCli('replay', `${dir}/scenario.yaml`, '--until', '3m', '--format', 'json');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /"action":"KubeletStopped"/);
  assert.match(r.out, /"action":"NodeStatusUnknown"/);
});

test('validate reports a removed flag and a short grace period with their positions, and exits 1', async () => {
  const r = await runCli('validate', 'test/fixtures/cli/kcm-removed-flag.yaml');
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.err, /kcm-removed-flag\.yaml:13:\d+: error [\w-]+: .*--pod-eviction-timeout/);
  assert.match(r.err, /kcm-removed-flag\.yaml:12:\d+: warning [\w-]+: .*45/);
});

test("validate of a scenario and the config file it reads says each of the file's problems once, at the whole flag", async () => {
  const r = await runCli('validate', 'test/fixtures/cli/kcm-removed-flag-scenario.yaml', 'test/fixtures/cli/kcm-removed-flag.yaml');
  assert.equal(r.code, 1, r.out + r.err);
  const removed = r.err.split('\n').filter((l) => /--pod-eviction-timeout/.test(l));
  assert.deepEqual(
    removed.map((l) => l.replace(/: error.*/, '')),
    ['test/fixtures/cli/kcm-removed-flag.yaml:13:7'],
  );
  const alone = await runCli('validate', 'test/fixtures/cli/kcm-removed-flag-scenario.yaml');
  assert.match(alone.err, /kcm-removed-flag\.yaml:13:\d+: error not-in-version/, 'the scenario alone still says it');
  assert.match(r.out, /^2 file\(s\): 1 error\(s\), \d+ warning\(s\)/);
});

test('validate passes every bundled example', async () => {
  const { readdirSync } = await import('node:fs');
  const files = readdirSync('examples')
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => `examples/${f}`);
  const r = await runCli('validate', ...files);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, / 0 error\(s\)/);
});

test('a bad value inside a quoted flag is located at the value, not at the quote', async () => {
  const r = await runCli('validate', 'test/fixtures/cli/quoted-flag.yaml');
  assert.equal(r.code, 1);
  // line 8 is `  flags: ["--node-monitor-period=5x"]`: the value 5x starts at column 34
  assert.match(r.err, /quoted-flag\.yaml:8:34: error bad-duration/);
});

const runProblemCases: { command: string; args: string[]; code: number }[] = [
  { command: 'replay', args: ['--until', '1m'], code: 0 },
  { command: 'explain', args: ['--object', 'Pod/default/p1', '--until', '1m'], code: 0 },
  // the expectation is about the pod the node's deletion left: it stays, as no pod GC runs
  { command: 'test', args: [], code: 0 },
];
for (const c of runProblemCases) {
  test(`${c.command} reports on stderr, with file:line:column, the problems the run itself finds`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-problems-'));
    try {
      const file = join(dir, 's.yaml');
      writeFileSync(
        file,
        `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
kubernetesVersion: "1.31"
startTime: "2026-01-01T00:00:00Z"
objects:
  - {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2025-12-31T23:59:58Z"}]}}
  - {apiVersion: v1, kind: Pod, metadata: {name: p1, namespace: default}, spec: {nodeName: n1, containers: [{name: c, image: nginx}]}, status: {phase: Running}}
events:
  - at: 10s
    delete: Node/n1
expect:
  - {at: 1m, pod: default/p1, deleted: false}
`,
      );
      const r = await runCli(c.command, file, ...c.args);
      assert.equal(r.code, c.code, r.err);
      assert.match(r.err, /s\.yaml:9:5: warning pod-gc-not-simulated: events\[0\]: Node n1 is deleted with pod default\/p1 bound to it;/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
