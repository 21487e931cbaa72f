/**
 * Every lint rule: the problem it reports (stable code), its exact range in
 * the document, and the document after its quick fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintDocument, type LintProblem } from '../../../src/engine/lint';
import { CLUSTER, CLUSTER_YAML, SCENARIO, applyEdits, marked, scenario, workspace } from './helpers';

interface Case {
  name: string;
  /** the document, with the expected range of the problem marked «...» */
  doc: string;
  code: string;
  severity?: LintProblem['severity'];
  file?: string;
  /** the document after the first quick fix, or null when none is offered */
  fixed?: string | null;
  /** codes that must NOT be reported */
  absent?: string[];
}

const cases: Case[] = [
  {
    name: 'an unknown top-level field is an error on the key, fixed to the field it is close to',
    doc: scenario('1.31', '«kubelett»:\n  nodeStatusUpdateFrequency: 10s\n'),
    code: 'unknown-field',
    severity: 'error',
    fixed: scenario('1.31', 'kubelet:\n  nodeStatusUpdateFrequency: 10s\n'),
  },
  {
    name: "an event's value in another form of the word (kubelet: stopped) is an error on the value, fixed to the word",
    doc: scenario('1.31', 'events:\n  - at: 30s\n    kubelet: «stopped»\n    nodes: [node-a1]\n'),
    code: 'bad-value',
    severity: 'error',
    fixed: scenario('1.31', 'events:\n  - at: 30s\n    kubelet: stop\n    nodes: [node-a1]\n'),
  },
  {
    name: "an expectation's taint key without the controllers' prefix is a warning on the value, fixed to the key they set",
    doc: scenario('1.31', 'expect:\n  - {at: 2m, node: node-a1, hasTaint: «unreachable:NoExecute»}\n'),
    code: 'bare-taint-key',
    severity: 'warning',
    fixed: scenario('1.31', 'expect:\n  - {at: 2m, node: node-a1, hasTaint: node.kubernetes.io/unreachable:NoExecute}\n'),
  },
  {
    name: "a taint key of the user's own without a prefix is left alone",
    doc: scenario('1.31', 'expect:\n  - {at: 2m, node: node-a1, lacksTaint: dedicated}\n'),
    code: '',
    absent: ['bare-taint-key'],
  },
  {
    name: 'a bad duration in an event is an error on the value',
    doc: scenario('1.31', 'events:\n  - at: «30x»\n    kubelet: stop\n    nodes: [node-a1]\n'),
    code: 'bad-duration',
    severity: 'error',
    fixed: null,
  },
  {
    name: 'a bad startTime is an error on the value',
    doc: scenario('1.31', '').replace('startTime: "2026-01-01T00:00:00Z"', 'startTime: «"yesterday"»'),
    code: 'bad-timestamp',
    severity: 'error',
    fixed: null,
  },
  {
    name: 'an event naming a node not in the snapshot is an error on the name, fixed to the closest node',
    doc: scenario('1.31', 'events:\n  - at: 30s\n    kubelet: stop\n    nodes: [node-a1, «node-a3»]\n'),
    code: 'unknown-node',
    severity: 'error',
    fixed: scenario('1.31', 'events:\n  - at: 30s\n    kubelet: stop\n    nodes: [node-a1, node-a1]\n'),
  },
  {
    name: 'an event deleting a pod not in the snapshot is an error on the reference, fixed to the closest pod',
    doc: scenario('1.31', 'events:\n  - at: 30s\n    delete: «Pod/default/web-2»\n'),
    code: 'unknown-pod',
    severity: 'error',
    fixed: scenario('1.31', 'events:\n  - at: 30s\n    delete: Pod/default/web-1\n'),
  },
  {
    name: 'a pod event written ns/name is fixed in the same shape',
    doc: scenario('1.31', 'events:\n  - at: 30s\n    pod: «default/web-2»\n    phase: Failed\n'),
    code: 'unknown-pod',
    severity: 'error',
    fixed: scenario('1.31', 'events:\n  - at: 30s\n    pod: default/web-1\n    phase: Failed\n'),
  },
  {
    name: "a taint text's effect in lower case is an error on the value, fixed to the whole taint with the effect spelt right",
    doc: scenario('1.31', 'events:\n  - at: 30s\n    node: node-a1\n    taint: «"example.com/drain=yes:noexecute"»\n'),
    code: 'bad-taint',
    severity: 'error',
    fixed: scenario('1.31', 'events:\n  - at: 30s\n    node: node-a1\n    taint: "example.com/drain=yes:NoExecute"\n'),
  },
  {
    name: "a taint's misspelt effect is an error on the effect, fixed to the effect",
    doc: scenario('1.31', 'events:\n  - at: 30s\n    node: node-a1\n    taint: {key: k, effect: «NoExecut»}\n'),
    code: 'bad-taint-effect',
    severity: 'error',
    fixed: scenario('1.31', 'events:\n  - at: 30s\n    node: node-a1\n    taint: {key: k, effect: NoExecute}\n'),
  },
  {
    name: 'a removed flag (--pod-eviction-timeout after 1.26) is an error on the flag, fixed by removing it',
    doc: scenario('1.27', 'controllerManager:\n  flags:\n    - «--pod-eviction-timeout=2m»\n    - --node-eviction-rate=0.2\n'),
    code: 'not-in-version',
    severity: 'error',
    fixed: scenario('1.27', 'controllerManager:\n  flags:\n    - --node-eviction-rate=0.2\n'),
  },
  {
    name: 'the same flag in 1.26 is accepted',
    doc: scenario('1.26', 'controllerManager:\n  featureGates: {}\n  flags: ["--pod-eviction-timeout=2m"]\n'),
    code: '',
    absent: ['not-in-version'],
  },
  {
    name: 'a setting the version no longer has is an error on the key, fixed by removing the line',
    doc: scenario('1.31', 'controllerManager:\n  «podEvictionTimeout»: 5m\n  nodeEvictionRate: 0.1\n'),
    code: 'not-in-version',
    severity: 'error',
    fixed: scenario('1.31', 'controllerManager:\n  nodeEvictionRate: 0.1\n'),
  },
  {
    name: 'an unknown flag is an error with a did-you-mean fix of the flag name only',
    doc: scenario('1.31', 'controllerManager:\n  flags:\n    - «--node-monitor-grace-perod=50s»\n'),
    code: 'unknown-flag',
    severity: 'error',
    fixed: scenario('1.31', 'controllerManager:\n  flags:\n    - --node-monitor-grace-period=50s\n'),
  },
  {
    name: 'an unknown scenario setting is an error with a did-you-mean fix',
    doc: scenario('1.31', 'controllerManager:\n  «nodeMonitorGracePeriodd»: 50s\n'),
    code: 'unknown-setting',
    severity: 'error',
    fixed: scenario('1.31', 'controllerManager:\n  nodeMonitorGracePeriod: 50s\n'),
  },
  {
    name: 'a duration setting written as a bare number is an error, fixed by adding the seconds unit',
    doc: scenario('1.31', 'controllerManager:\n  «nodeMonitorPeriod»: 5\n'),
    code: 'bad-duration',
    severity: 'error',
    fixed: scenario('1.31', 'controllerManager:\n  nodeMonitorPeriod: 5s\n'),
  },
  {
    name: 'a grace period of 2.5 heartbeats is a warning on its value, rounded up to 4 heartbeats',
    doc: scenario('1.12', 'controllerManager:\n  nodeMonitorGracePeriod: «25s»\n'),
    code: 'grace-period-few-heartbeats',
    severity: 'warning',
    fixed: scenario('1.12', 'controllerManager:\n  nodeMonitorGracePeriod: 40s\n'),
    absent: ['grace-period-under-http2-timeout'],
  },
  {
    name: 'a slower kubelet heartbeat makes the default grace period too few heartbeats (warning on the kubelet setting)',
    doc: scenario('1.12', 'kubelet:\n  «nodeStatusUpdateFrequency»: 15s\n'),
    code: 'grace-period-few-heartbeats',
    severity: 'warning',
    fixed: null,
  },
  {
    name: 'a grace period under 45s from 1.20 is a warning (HTTP/2 read-idle + ping), rounded up to a heartbeat multiple',
    doc: scenario('1.31', 'controllerManager:\n  nodeMonitorGracePeriod: "«44s»"\n'),
    code: 'grace-period-under-http2-timeout',
    severity: 'warning',
    fixed: scenario('1.31', 'controllerManager:\n  nodeMonitorGracePeriod: "50s"\n'),
    absent: ['grace-period-few-heartbeats'],
  },
  {
    name: 'a grace period of exactly 45s passes the HTTP/2 rule',
    doc: scenario('1.31', 'controllerManager:\n  nodeMonitorGracePeriod: 45s\n'),
    code: '',
    absent: ['grace-period-under-http2-timeout', 'grace-period-few-heartbeats'],
  },
  {
    name: 'a grace period set by flag is fixed in the flag',
    doc: scenario('1.31', 'controllerManager:\n  flags: ["--node-monitor-grace-period=«30s»"]\n'),
    code: 'grace-period-few-heartbeats',
    severity: 'warning',
    fixed: scenario('1.31', 'controllerManager:\n  flags: ["--node-monitor-grace-period=40s"]\n'),
  },
  {
    name: 'a 1.14+ scenario over a snapshot without Leases warns on snapshot',
    doc: scenario('1.31', '').replace('snapshot:', '«snapshot»:'),
    code: 'no-leases',
    severity: 'warning',
    fixed: null,
  },
  {
    name: 'a 1.13 scenario over a snapshot without Leases does not warn (NodeLease is alpha and off)',
    doc: scenario('1.13', ''),
    code: '',
    absent: ['no-leases'],
  },
  {
    name: 'a feature gate the version does not have is an error, fixed by removing it',
    doc: scenario('1.31', 'controllerManager:\n  featureGates:\n    «TaintBasedEvictions»: true\n    SeparateTaintEvictionController: true\n'),
    code: 'gate-not-in-version',
    severity: 'error',
    fixed: scenario('1.31', 'controllerManager:\n  featureGates:\n    SeparateTaintEvictionController: true\n'),
  },
  {
    name: 'a monitor period under one second is legal but absurd: a warning on the setting',
    doc: scenario('1.31', 'controllerManager:\n  «nodeMonitorPeriod»: 500ms\n'),
    code: 'absurd-setting',
    severity: 'warning',
  },
  {
    name: 'a monitor period of 1us is more than the simulation runs: an error on the setting',
    doc: scenario('1.31', 'controllerManager:\n  «nodeMonitorPeriod»: 1us\n'),
    code: 'period-below-limit',
    severity: 'error',
  },
  {
    name: 'a grace period shorter than the monitor period is a warning',
    doc: scenario('1.31', 'controllerManager:\n  nodeMonitorPeriod: 1m\n  «nodeMonitorGracePeriod»: 50s\n'),
    code: 'absurd-setting',
    severity: 'warning',
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { text, ranges } = marked(c.doc);
    const problems = lintDocument(c.file ?? SCENARIO, text, undefined, workspace());
    for (const code of c.absent ?? [])
      assert.equal(problems.filter((p) => p.code === code).length, 0, `${code} must not be reported: ${JSON.stringify(problems.map((p) => p.code))}`);
    if (!c.code) return;
    const p = problems.find((x) => x.code === c.code);
    assert.ok(
      p,
      `expected ${c.code}, got ${JSON.stringify(
        problems.map((x) => `${x.code}: ${x.message}`),
        null,
        1,
      )}`,
    );
    if (c.severity) assert.equal(p.severity, c.severity);
    assert.equal(p.position?.file, c.file ?? SCENARIO);
    assert.deepEqual(
      [p.position?.offset, p.position?.endOffset],
      ranges[0],
      `range of ${c.code}: got ${JSON.stringify(text.slice(p.position?.offset, p.position?.endOffset))}`,
    );
    if (c.fixed === null) assert.equal(p.fixes?.length ?? 0, 0);
    else if (c.fixed !== undefined) {
      assert.ok(p.fixes?.length, 'a quick fix is offered');
      assert.equal(applyEdits(text, p.fixes![0].edits), c.fixed);
      // the fixed document no longer has the problem at that place
      const after = lintDocument(SCENARIO, c.fixed, undefined, workspace());
      assert.equal(after.filter((x) => x.code === c.code).length, 0, JSON.stringify(after.map((x) => x.message)));
    }
  });
}

test('the defaults of every version raise no timing lint', () => {
  for (let minor = 12; minor <= 35; minor++) {
    const problems = lintDocument(SCENARIO, scenario(`1.${minor}`, ''), undefined, workspace());
    const timing = problems.filter((p) => p.code.startsWith('grace-period'));
    assert.deepEqual(timing, [], `1.${minor}`);
  }
});

test('a clean scenario has no problems at all', () => {
  const problems = lintDocument(
    SCENARIO,
    scenario('1.12', 'controllerManager:\n  nodeMonitorGracePeriod: 40s\nevents:\n  - at: 30s\n    kubelet: stop\n    nodes: [node-a1]\n'),
    undefined,
    workspace(),
  );
  assert.deepEqual(problems, []);
});

test('a scenario without startTime over a snapshot without timestamps warns on kind', () => {
  const text =
    'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\nobjects:\n  - {apiVersion: v1, kind: Node, metadata: {name: n1}}\n';
  const p = lintDocument(SCENARIO, text, undefined, workspace()).find((x) => x.code === 'no-start-time');
  assert.ok(p);
  assert.equal(text.slice(p.position!.offset, p.position!.endOffset), 'kind');
  assert.deepEqual([p.position!.line, p.position!.column], [2, 1]);
  assert.ok(
    !lintDocument(SCENARIO, text.replace('kind: Scenario', 'kind: Scenario\nstartTime: "2026-01-01T00:00:00Z"'), undefined, workspace()).some(
      (x) => x.code === 'no-start-time',
    ),
  );
});

test('a ReplicaSet whose selector does not match its template is an error at the ReplicaSet, only when the replicaset controller runs', () => {
  const fs = workspace();
  fs.write(
    '/ws/cluster.yaml',
    fs.readText('/ws/cluster.yaml').replace('template: {metadata: {labels: {app: web}}', 'template: {metadata: {labels: {app: api}}'),
  );
  const p = lintDocument(SCENARIO, scenario('1.31', ''), undefined, fs).find((x) => x.code === 'replicaset-selector-mismatch');
  assert.ok(p);
  assert.equal(p.position?.file, '/ws/cluster.yaml');
  assert.equal(fs.readText('/ws/cluster.yaml').split('\n')[p.position!.line - 1], '- apiVersion: apps/v1');
  const off = lintDocument(SCENARIO, scenario('1.31', 'controllerManager:\n  controllers: ["*", "-replicaset"]\n'), undefined, fs);
  assert.ok(!off.some((x) => x.code === 'replicaset-selector-mismatch'));
});

test('a pod owned by a ReplicaSet that is not in the snapshot is a warning at the pod', () => {
  const fs = workspace();
  fs.write('/ws/cluster.yaml', fs.readText('/ws/cluster.yaml').replace('kind: ReplicaSet, name: web, uid: rs-1', 'kind: ReplicaSet, name: gone, uid: rs-9'));
  const p = lintDocument(SCENARIO, scenario('1.31', ''), undefined, fs).find((x) => x.code === 'pod-dangling-owner');
  assert.ok(p);
  assert.equal(p.severity, 'warning');
  assert.match(fs.readText('/ws/cluster.yaml').split('\n')[p.position!.line + 2], /name: web-1/);
});

test("a snapshot's misspelt enum values are errors on the value, each fixed to the value it is close to", () => {
  const text = CLUSTER_YAML.replace('status: {phase: Running}', 'status: {phase: Runing}').replace(
    'labels: {topology.kubernetes.io/zone: zone-a}\n  status:',
    'labels: {topology.kubernetes.io/zone: zone-a}\n  spec: {taints: [{key: k, effect: noexecute}]}\n  status:',
  );
  const fixes = lintDocument(CLUSTER, text, undefined, workspace())
    .filter((p) => p.code === 'bad-pod-phase' || p.code === 'bad-taint-effect')
    .map((p) => `${p.code}: ${text.slice(p.position!.offset, p.position!.endOffset)} -> ${p.fixes?.[0]?.edits[0].newText}`)
    .sort();
  assert.deepEqual(fixes, ['bad-pod-phase: Runing -> Running', 'bad-taint-effect: noexecute -> NoExecute']);
});

test('a scenario without its header (read as a snapshot) is told so, and the quick fix adds the two lines below its opening comments', () => {
  const body = 'snapshot: ./cluster.yaml\nstartTime: "2026-01-01T00:00:00Z"\nevents:\n  - {at: 30s, kubelet: stop, nodes: [node-a1]}\n';
  const text = `# node-a1 stops\n\n${body}`;
  const problems = lintDocument(SCENARIO, text, undefined, workspace());
  const p = problems.find((x) => x.code === 'not-kubernetes');
  assert.ok(p, JSON.stringify(problems.map((x) => `${x.code}: ${x.message}`)));
  assert.match(p.message, /a scenario without its header \(its keys "snapshot", "startTime", "events" are a scenario's\)/);
  assert.equal(p.fixes?.[0]?.title, 'Add the scenario header (apiVersion and kind)');
  const fixed = applyEdits(text, p.fixes![0].edits);
  assert.equal(fixed, `# node-a1 stops\n\napiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\n${body}`);
  // fixed, it is the scenario it meant to be: no problem left
  assert.deepEqual(
    lintDocument(SCENARIO, fixed, undefined, workspace()).map((x) => `${x.code}: ${x.message}`),
    [],
  );
});
