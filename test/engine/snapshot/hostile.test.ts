/**
 * Hostile and absurd input (issue 17): each is refused with a positioned error, or
 * bounded, before anything runs. Through the public entry points, with in-memory files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { loadScenario, parseScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs, type InputFs } from '../../../src/engine/snapshot/source';
import type { Problem } from '../../../src/engine/problems';

const errors = (ps: readonly Problem[]) => ps.filter((p) => p.severity === 'error');
const where = (p: Problem) => `${p.position?.file}:${p.position?.line}:${p.position?.column} ${p.code}`;

const node = (name: string, extra = '') =>
  `- apiVersion: v1\n  kind: Node\n  metadata: {name: ${name}${extra}}\n  status: {conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2026-01-01T00:00:00Z"}]}\n`;
const list = (...items: string[]) => `apiVersion: v1\nkind: List\nitems:\n${items.join('')}`;

test('objects the API server would refuse are left out with an error at their field', () => {
  const cases: [what: string, item: string, code: string, line: number][] = [
    ['a node name with capitals', node('Node_A'), 'invalid-name', 6],
    ['a name of 300 characters', node('a'.repeat(300)), 'invalid-name', 6],
    ['a namespace with a dot', '- {apiVersion: v1, kind: Pod, metadata: {name: p, namespace: a.b}, spec: {nodeName: n}}\n', 'invalid-name', 4],
    ['a label key with two slashes', node('n', ', labels: {a/b/c: x}'), 'invalid-label', 6],
    ['a label value of 64 characters', node('n', `, labels: {k: ${'v'.repeat(64)}}`), 'invalid-label', 6],
    [
      'a taint key with a space',
      '- apiVersion: v1\n  kind: Node\n  metadata: {name: n}\n  spec: {taints: [{key: "bad key", effect: NoSchedule}]}\n',
      'invalid-taint',
      7,
    ],
    [
      'tolerationSeconds of 1e308',
      '- apiVersion: v1\n  kind: Pod\n  metadata: {name: p, namespace: d}\n  spec: {tolerations: [{key: k, operator: Exists, tolerationSeconds: 1e308}]}\n',
      'out-of-range',
      7,
    ],
    [
      'a pod-deletion-cost of 99999999999999999999',
      '- apiVersion: v1\n  kind: Pod\n  metadata: {name: p, namespace: d, annotations: {controller.kubernetes.io/pod-deletion-cost: "99999999999999999999"}}\n',
      'invalid-deletion-cost',
      6,
    ],
    [
      'replicas of 2147483648',
      '- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata: {name: r, namespace: d}\n  spec: {replicas: 2147483648, selector: {matchLabels: {a: b}}}\n',
      'out-of-range',
      7,
    ],
    [
      'replicas of 10^9',
      '- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata: {name: r, namespace: d}\n  spec: {replicas: 1000000000, selector: {matchLabels: {a: b}}}\n',
      'too-many-replicas',
      7,
    ],
    [
      'replicas of -1',
      '- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata: {name: r, namespace: d}\n  spec: {replicas: -1, selector: {matchLabels: {a: b}}}\n',
      'out-of-range',
      7,
    ],
  ];
  for (const [what, item, code, line] of cases) {
    const snap = loadSnapshot({ file: 's.yaml', text: list(item) });
    const e = errors(snap.problems);
    assert.equal(e.length >= 1, true, what);
    assert.equal(e[0].code, code, `${what}: ${e[0].message}`);
    assert.equal(e[0].position?.line, line, `${what}: ${where(e[0])}`);
    assert.equal(snap.objects.length, 0, `${what}: the object is left out`);
    assert.ok(snap.partial, what);
  }
});

test('objects within the API rules load without a problem', () => {
  const snap = loadSnapshot({
    file: 's.yaml',
    text: list(
      node('node-a.example.com', ', labels: {topology.kubernetes.io/zone: us-east-1a, k: ""}'),
      '- apiVersion: v1\n  kind: Pod\n  metadata: {name: p, namespace: d, annotations: {controller.kubernetes.io/pod-deletion-cost: "-2147483648"}}\n  spec: {tolerations: [{key: k, operator: Exists, tolerationSeconds: 9223372036854775807}]}\n',
      '- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata: {name: r, namespace: d}\n  spec: {replicas: 200000, selector: {matchLabels: {a: b}}}\n',
    ),
  });
  assert.deepEqual(errors(snap.problems).map(where), []);
  assert.equal(snap.objects.length, 3);
});

test('a deeply nested value is refused by the depth limit, the same way at every depth past it', () => {
  for (const depth of [101, 3_000, 20_000]) {
    const deep = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    for (const [what, text] of [
      ['JSON', `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":${deep}}`],
      ['YAML flow', `apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: ${'['.repeat(depth)}${']'.repeat(depth)}\n`],
    ] as const) {
      const snap = loadSnapshot({ file: 's', text });
      assert.deepEqual(
        errors(snap.problems).map((p) => p.code),
        ['too-deep'],
        `${what} at ${depth}`,
      );
      assert.match(errors(snap.problems)[0].message, /deeper than 100 levels/);
      assert.equal(snap.objects.length, 0);
    }
  }
  const shallow = loadSnapshot({
    file: 's',
    text: `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n"},"status":{"x":${'['.repeat(90)}${']'.repeat(90)}}}`,
  });
  assert.deepEqual(errors(shallow.problems), []);
});

test('a file that is not Kubernetes YAML is reported without echoing what it holds', () => {
  for (const text of ['https://user:ghp_SECRETTOKEN@github.com\n', 'PASSWORD=hunter2-SECRET\n', '12345678901234567890\n']) {
    const snap = loadSnapshot({ file: '.env', text });
    const all = snap.problems.map((p) => p.message).join('\n');
    assert.doesNotMatch(all, /SECRET|hunter2|123456789/, text);
    assert.ok(
      snap.problems.some((p) => p.code === 'not-kubernetes'),
      text,
    );
  }
});

test('YAML that would expand without bound, or be read by another YAML version, is read safely', () => {
  const bomb =
    'apiVersion: v1\nkind: List\nitems:\n- &a [x,x,x,x,x,x,x,x,x]\n- &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n- &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n- &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n- [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';
  const b = loadSnapshot({ file: 'bomb.yaml', text: bomb });
  assert.match(
    errors(b.problems)
      .map((p) => p.message)
      .join(),
    /alias bomb/,
  );
  const v11 = loadSnapshot({ file: 'v11.yaml', text: `%YAML 1.1\n---\n${list(node('n', ', creationTimestamp: 2026-01-01T00:00:00Z'))}` });
  assert.deepEqual(errors(v11.problems), []);
  assert.equal(v11.latestTimestamp, Date.UTC(2026, 0, 1) * 1000, 'the unquoted timestamp is a time, not the zero time');
});

test('a YAML complex key does not print a warning of its own on stderr', () => {
  const emitted: string[] = [];
  const listener = (w: Error) => emitted.push(w.message);
  process.on('warning', listener);
  try {
    loadSnapshot({ file: 'k.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  ? [a, b]\n  : c\n' });
    parseScenario('kind: Scenario\nmetadata:\n  ? [a, b]\n  : c\n', 's.yaml');
  } finally {
    process.off('warning', listener);
  }
  return new Promise<void>((done) =>
    setImmediate(() => {
      assert.deepEqual(emitted, []);
      done();
    }),
  );
});

const SCENARIO = (body: string) =>
  `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\nstartTime: "2026-01-01T00:00:00Z"\nsnapshot: ./s.yaml\n${body}`;
const files = (scenario: string, extra: Record<string, string> = {}): InputFs =>
  new MemoryFs({
    '/w/s.yaml':
      list(node('node-a')) +
      '- {apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: web, namespace: default}, spec: {replicas: 1, selector: {matchLabels: {app: web}}}}\n',
    '/w/scenario.yaml': scenario,
    ...extra,
  });

test('times and sizes the simulated clock cannot hold are refused before the run, at their line', () => {
  const cases: [what: string, scenario: string, code: string, line: number][] = [
    ['an event at 100000h', SCENARIO('events:\n  - {at: 100000h, kubelet: stop, nodes: [node-a]}\n'), 'beyond-horizon', 7],
    ['an expectation at 2^53 µs', SCENARIO('expect:\n  - {at: 9007199254740992us, node: node-a, ready: Unknown}\n'), 'beyond-horizon', 7],
    ['an event at an RFC3339 time 10 years on', SCENARIO('events:\n  - {at: "2036-01-01T00:00:00Z", kubelet: stop, nodes: [node-a]}\n'), 'beyond-horizon', 7],
    ['a start time in 2300', SCENARIO('').replace('2026-01-01', '2300-01-01'), 'start-out-of-range', 4],
    ['a start time in year 1', SCENARIO('').replace('2026-01-01', '0001-01-01'), 'start-out-of-range', 4],
    ['a scale to 2147483648', SCENARIO('events:\n  - {at: 1m, scale: {replicaSet: default/web, replicas: 2147483648}}\n'), 'out-of-range', 7],
    [
      'a scale to 10^9 (an int32, but more than the simulation runs)',
      SCENARIO('events:\n  - {at: 1m, scale: {replicaSet: default/web, replicas: 1000000000}}\n'),
      'too-many-replicas',
      7,
    ],
    [
      'an event nested 150 levels deep',
      SCENARIO(`events:\n  - {at: 1m, patch: {object: Node/node-a, merge: {metadata: {annotations: {a: ${'['.repeat(150)}${']'.repeat(150)}}}}}}\n`),
      'too-deep',
      1,
    ],
  ];
  for (const [what, text, code, line] of cases) {
    const s = loadScenario('/w/scenario.yaml', files(text));
    const e = errors(s.problems).filter((p) => p.code === code);
    assert.equal(
      e.length,
      1,
      `${what}: ${errors(s.problems)
        .map((p) => `${where(p)} ${p.message}`)
        .join('; ')}`,
    );
    assert.equal(e[0].position?.line, line, `${what}: ${where(e[0])}`);
    assert.equal(e[0].position?.file, '/w/scenario.yaml', what);
  }
  const fine = loadScenario(
    '/w/scenario.yaml',
    files(SCENARIO('events:\n  - {at: 8000h, kubelet: stop, nodes: [node-a]}\n  - {at: 1m, scale: {replicaSet: default/web, replicas: 200000}}\n')),
  );
  assert.deepEqual(errors(fine.problems).map(where), []);
});

test('a snapshot named 200 times is read once and looked at a few times, with one warning', () => {
  const fs = files(SCENARIO('').replace('snapshot: ./s.yaml', `snapshot: [${Array(200).fill('./s.yaml').join(', ')}]`));
  let reads = 0;
  let stats = 0;
  // a stat can cost the file's size (MemoryFs counts UTF-8 bytes): 200 of a 1.6 MB file took 9 s (fuzz seed 1000 case 378)
  const counting: InputFs = {
    stat: (p) => {
      if (p.endsWith('/s.yaml')) stats++;
      return fs.stat(p);
    },
    list: (d) => fs.list(d),
    readText: (p) => {
      if (p.endsWith('/s.yaml')) reads++;
      return fs.readText(p);
    },
  };
  const s = loadScenario('/w/scenario.yaml', counting);
  assert.equal(reads, 1);
  assert.ok(stats <= 5, `stats of the snapshot: ${stats}`);
  assert.equal(s.snapshot.cluster.nodes.size, 1);
  assert.equal(s.problems.filter((p) => p.code === 'duplicate-snapshot').length, 199);
  assert.equal(s.problems.filter((p) => p.code === 'duplicate-object').length, 0);
});

test("snapshot: and configFile: outside the scenario's folder tree are refused unless allowed", () => {
  const secret = { '/home/me/.git-credentials': 'https://me:ghp_TOKEN@github.com\n', '/w/../etc/passwd': 'root:x:0:0\n' };
  const cases: [what: string, body: string][] = [
    ['an absolute snapshot path', 'snapshot: /home/me/.git-credentials\n'],
    ['a snapshot path that climbs out', 'snapshot: ../home/me/.git-credentials\n'],
    ['a configFile that climbs out', 'snapshot: ./s.yaml\ncontrollerManager:\n  configFile: ../home/me/.git-credentials\n'],
  ];
  for (const [what, body] of cases) {
    const text = SCENARIO('').replace('snapshot: ./s.yaml\n', body);
    const refused = loadScenario('/w/scenario.yaml', files(text, secret));
    const e = errors(refused.problems);
    assert.ok(
      e.some((p) => p.code === 'path-outside' && p.position?.file === '/w/scenario.yaml'),
      `${what}: ${e.map(where)}`,
    );
    assert.doesNotMatch(refused.problems.map((p) => p.message).join('\n'), /TOKEN/, what);
    const allowed = loadScenario('/w/scenario.yaml', files(text, secret), { allowOutside: true });
    assert.ok(!allowed.problems.some((p) => p.code === 'path-outside'), what);
    assert.doesNotMatch(allowed.problems.map((p) => p.message).join('\n'), /TOKEN/, `${what}, allowed: still not echoed`);
  }
});
