import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadScenario, parseScenario, isScenarioText } from '../../../src/engine/snapshot/scenario';
import { taint as taintRecord } from '../../../src/engine/model/records';
import { parseTaintText, didYouMean } from '../../../src/engine/snapshot/scenarioReader';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { nodeFs } from '../../../src/platform/nodeFs';
import { parseTimestamp, seconds, minutes } from '../../../src/engine/model/time';
import type { Problem } from '../../../src/engine/problems';
import type { ScenarioEvent } from '../../../src/engine/snapshot/types';

const FIXTURES = resolve(__dirname, '../../fixtures/loader/scenario');
const at = (p: Problem) => `${p.position?.line}:${p.position?.column} ${p.severity} ${p.code}`;
/** the problems but the clock's start: these snapshots carry no timestamp, which is beside their point */
const notStart = (ps: readonly Problem[]) => ps.filter((p) => p.code !== 'no-start-time');

test('the spec example scenario loads with every key, its snapshot, its config file and its timeline sorted by time', () => {
  const s = loadScenario(resolve(FIXTURES, 'zone-a-outage.yaml'), nodeFs());
  assert.deepEqual(s.problems.filter((p) => p.severity !== 'info').map(at), [
    '31:5 warning events-out-of-order',
    '34:5 warning events-out-of-order',
    '36:5 warning events-out-of-order',
  ]);
  assert.equal(s.name, 'zone-a-outage');
  assert.equal(s.plainSnapshot, false);
  assert.equal(s.kubernetesVersion, '1.12');
  assert.equal(s.startTime, parseTimestamp('2026-01-01T00:00:00Z'));
  assert.equal(s.controllerMemory, 'reconstructed');
  assert.equal(s.binder, 'simplified');
  assert.equal(s.snapshot.cluster.nodes.size, 3);
  assert.deepEqual(Object.keys(s.controllerManager.settings), [
    'nodeMonitorPeriod',
    'nodeMonitorGracePeriod',
    'podEvictionTimeout',
    'nodeEvictionRate',
    'enableTaintManager',
  ]);
  assert.equal(s.controllerManager.settings.nodeEvictionRate.value, 0.1);
  assert.deepEqual(
    s.controllerManager.settings.nodeMonitorGracePeriod.position && [
      s.controllerManager.settings.nodeMonitorGracePeriod.position.line,
      s.controllerManager.settings.nodeMonitorGracePeriod.position.column,
    ],
    [12, 3],
  );
  assert.deepEqual(Object.fromEntries(Object.entries(s.controllerManager.featureGates).map(([k, v]) => [k, v.value])), {
    TaintBasedEvictions: false,
    TaintNodesByCondition: false,
    NodeLease: false,
  });
  assert.deepEqual(
    s.controllerManager.flags.map((f) => f.text),
    ['--node-monitor-grace-period=20s'],
  );
  assert.equal(s.controllerManager.configFile?.path, resolve(FIXTURES, 'kube-controller-manager.yaml'));
  assert.equal(s.controllerManager.configFile?.text, readFileSync(resolve(FIXTURES, 'kube-controller-manager.yaml'), 'utf8'));
  assert.equal(s.kubelet.nodeStatusUpdateFrequency.value, '10s');
  // sorted by time, file order within an instant; `index` keeps the file position
  assert.deepEqual(
    s.events.map((e) => `${e.index}:${e.kind}`),
    ['0:kubelet', '1:condition', '3:taint', '4:scale', '5:delete', '2:kubelet', '6:apply', '7:pod', '8:restartControllerManager'],
  );
  assert.deepEqual(
    s.expect.map((e) => [e.node ?? e.pod, e.hasTaint ?? e.deleted]),
    [
      ['node-a1', 'node.kubernetes.io/unreachable:NoExecute'],
      ['default/web-7d9f-x1', true],
    ],
  );
  assert.deepEqual(s.expect[0].at, { offset: minutes(6) });
});

// --- every event kind --------------------------------------------------------------------------

const HEADER = `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
kubernetesVersion: "1.31"
snapshot: cluster.yaml
events:
`;
const HEADER_LINES = 5;

function scenario(events: string, extra = '') {
  const fs = new MemoryFs({ '/s/cluster.yaml': readFileSync(resolve(FIXTURES, 'cluster.yaml'), 'utf8') });
  return parseScenario(HEADER + events + extra, '/s/scenario.yaml', fs);
}

type Plain<T> = T extends unknown ? Omit<T, 'position' | 'index'> : never;
const strip = (e: ScenarioEvent): Plain<ScenarioEvent> => {
  const { position, index, ...rest } = e as ScenarioEvent & { position?: unknown };
  void position;
  void index;
  return rest as Plain<ScenarioEvent>;
};

const eventCases: { name: string; yaml: string; want: Plain<ScenarioEvent> }[] = [
  {
    name: 'kubelet stop on named nodes',
    yaml: '- {at: 30s, kubelet: stop, nodes: [node-a1, node-a2]}',
    want: { at: { offset: seconds(30) }, kind: 'kubelet', action: 'stop', target: { nodes: ['node-a1', 'node-a2'] } },
  },
  {
    name: 'kubelet stop of the Lease only, by zone',
    yaml: '- {at: 1m30s, kubelet: stop, only: lease, zone: us-east-1a}',
    want: { at: { offset: seconds(90) }, kind: 'kubelet', action: 'stop', only: 'lease', target: { zone: 'us-east-1a' } },
  },
  {
    name: 'kubelet start posting Ready=False, by selector',
    yaml: '- at: 2m\n  kubelet: start\n  conditions: {Ready: "False", MemoryPressure: True}\n  selector: {matchLabels: {topology.kubernetes.io/zone: us-east-1a}}',
    want: {
      at: { offset: minutes(2) },
      kind: 'kubelet',
      action: 'start',
      target: { selector: { matchLabels: { 'topology.kubernetes.io/zone': 'us-east-1a' } } },
      conditions: { Ready: 'False', MemoryPressure: 'True' },
    },
  },
  {
    name: 'a condition posted on one node at an RFC3339 time',
    yaml: '- {at: "2026-01-01T00:00:45Z", node: node-b1, condition: {type: Ready, status: "False", reason: KubeletNotReady, message: down}}',
    want: {
      at: { time: parseTimestamp('2026-01-01T00:00:45Z')! },
      kind: 'condition',
      target: { nodes: ['node-b1'] },
      condition: { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'down' },
    },
  },
  {
    name: 'a taint written as a mapping',
    yaml: '- {at: 1m, node: node-b1, taint: {key: example.com/maintenance, value: "yes", effect: NoExecute}}',
    want: {
      at: { offset: minutes(1) },
      kind: 'taint',
      target: { nodes: ['node-b1'] },
      taint: taintRecord('example.com/maintenance', 'NoExecute', 'yes', undefined),
    },
  },
  {
    name: 'a taint written as key=value:Effect',
    yaml: '- {at: 1m, node: node-b1, taint: "example.com/m=x:NoSchedule"}',
    want: { at: { offset: minutes(1) }, kind: 'taint', target: { nodes: ['node-b1'] }, taint: { key: 'example.com/m', value: 'x', effect: 'NoSchedule' } },
  },
  {
    name: 'an untaint by key and effect',
    yaml: '- {at: 2m, node: node-b1, untaint: {key: example.com/maintenance, effect: NoExecute}}',
    want: { at: { offset: minutes(2) }, kind: 'untaint', target: { nodes: ['node-b1'] }, taint: { key: 'example.com/maintenance', effect: 'NoExecute' } },
  },
  {
    name: 'an untaint by key alone',
    yaml: '- {at: 2m, node: node-b1, untaint: example.com/maintenance}',
    want: { at: { offset: minutes(2) }, kind: 'untaint', target: { nodes: ['node-b1'] }, taint: { key: 'example.com/maintenance' } },
  },
  {
    name: 'apply of a whole object',
    yaml: '- {at: 4m, apply: {apiVersion: v1, kind: Node, metadata: {name: node-c1}}}',
    want: { at: { offset: minutes(4) }, kind: 'apply', object: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-c1' } } },
  },
  {
    name: 'a JSON merge patch of a node',
    yaml: '- {at: 4m, patch: {object: Node/node-a1, merge: {spec: {unschedulable: true}}}}',
    want: { at: { offset: minutes(4) }, kind: 'patch', ref: 'Node/node-a1', merge: { spec: { unschedulable: true } } },
  },
  {
    name: 'delete of a pod by Kind/ns/name',
    yaml: '- {at: 2m30s, delete: Pod/default/web-7d9f-abcde}',
    want: { at: { offset: seconds(150) }, kind: 'delete', ref: 'Pod/default/web-7d9f-abcde' },
  },
  {
    name: 'delete of a node by Kind/name',
    yaml: '- {at: 2m30s, delete: Node/node-a2}',
    want: { at: { offset: seconds(150) }, kind: 'delete', ref: 'Node/node-a2' },
  },
  {
    name: 'delete of a namespaced object by Kind/name means the default namespace',
    yaml: '- {at: 2m30s, delete: ReplicaSet/web}',
    want: { at: { offset: seconds(150) }, kind: 'delete', ref: 'ReplicaSet/default/web' },
  },
  {
    name: 'a pod becoming not ready',
    yaml: '- {at: 1m, pod: default/web-7d9f-abcde, ready: false}',
    want: { at: { offset: minutes(1) }, kind: 'pod', pod: 'default/web-7d9f-abcde', ready: false },
  },
  {
    name: 'a pod failing',
    yaml: '- {at: 1m, pod: default/web-7d9f-abcde, phase: Failed}',
    want: { at: { offset: minutes(1) }, kind: 'pod', pod: 'default/web-7d9f-abcde', phase: 'Failed' },
  },
  {
    name: 'a ReplicaSet scaled',
    yaml: '- {at: 2m, scale: {replicaSet: default/web, replicas: 8}}',
    want: { at: { offset: minutes(2) }, kind: 'scale', replicaSet: 'default/web', replicas: 8 },
  },
  {
    name: 'API failures injected',
    yaml: '- {at: 0, fail: {verb: create, resource: pods, count: 3}}',
    want: { at: { offset: 0 }, kind: 'fail', verb: 'create', resource: 'pods', count: 3 },
  },
  {
    name: 'an API failure with the default count of one',
    yaml: '- {at: 0s, fail: {verb: patch, resource: nodes}}',
    want: { at: { offset: 0 }, kind: 'fail', verb: 'patch', resource: 'nodes', count: 1 },
  },
  {
    name: 'a controller-manager restart',
    yaml: '- {at: 5m, restartControllerManager: true}',
    want: { at: { offset: minutes(5) }, kind: 'restartControllerManager', failover: false },
  },
  {
    name: 'a leader-election failover',
    yaml: '- {at: 5m, restartControllerManager: {failover: true}}',
    want: { at: { offset: minutes(5) }, kind: 'restartControllerManager', failover: true },
  },
];

for (const c of eventCases) {
  test(`an event is read: ${c.name}`, () => {
    const { scenario: s, problems } = scenario(c.yaml + '\n');
    assert.deepEqual(
      problems.filter((p) => p.severity !== 'info'),
      [],
    );
    assert.equal(s.events.length, 1);
    assert.deepEqual(strip(s.events[0]), c.want);
    assert.equal(s.events[0].position?.line, HEADER_LINES + 1);
  });
}

test("a Lease named by its node alone (Lease/NAME) is the node's Lease in kube-node-lease, found in the snapshot", () => {
  const cluster = `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}}
- {apiVersion: coordination.k8s.io/v1, kind: Lease, metadata: {name: n1, namespace: kube-node-lease}, spec: {holderIdentity: n1, renewTime: "2026-01-01T00:00:00.000000Z"}}
`;
  const fs = new MemoryFs({ '/s/cluster.yaml': cluster });
  const { scenario: s, problems } = parseScenario(`${HEADER}- {at: 1m, delete: Lease/n1}\n`, '/s/scenario.yaml', fs);
  // before, Lease/n1 meant Lease/default/n1: an unknown-lease error, and a delete of nothing
  assert.deepEqual(
    problems.filter((p) => p.severity !== 'info').map((p) => p.code),
    [],
  );
  assert.deepEqual(strip(s.events[0]), { at: { offset: minutes(1) }, kind: 'delete', ref: 'Lease/kube-node-lease/n1' });
});

test('a node applied earlier in the timeline may be named by later events, but not by earlier ones', () => {
  const { problems } = scenario(`- {at: 1m, kubelet: start, node: node-new}
- {at: 2m, apply: {apiVersion: v1, kind: Node, metadata: {name: node-new, labels: {topology.kubernetes.io/zone: zone-x}}}}
- {at: 3m, kubelet: stop, node: node-new}
- {at: 3m, kubelet: stop, zone: zone-x}
`);
  assert.deepEqual(problems.map(at), ['6:34 error unknown-node']);
});

// --- problems with positions ---------------------------------------------------------------------

const problemCases: { name: string; events: string; extra?: string; want: string[]; message?: RegExp }[] = [
  {
    name: 'an unknown event key gets a did-you-mean',
    events: '- {at: 1m, kubelet: stop, nodez: [node-a1]}\n',
    want: ['6:27 error unknown-field', '6:12 error missing-target'],
    message: /did you mean nodes\?/,
  },
  {
    name: 'a misspelt event kind is suggested',
    events: '- {at: 1m, kubelett: stop, nodes: [node-a1]}\n',
    want: ['6:12 error missing-event-kind'],
    message: /did you mean kubelet\?/,
  },
  {
    name: 'an event kind run together with what it does is suggested, and the unknown key named',
    events: '- {at: 1m, kubeletStops: node-a1}\n',
    want: ['6:12 error missing-event-kind'],
    message: /unknown field "kubeletStops".*did you mean kubelet\?/,
  },
  {
    name: 'a key that begins with no event kind gets no suggestion',
    events: '- {at: 1m, outage: node-a1}\n',
    want: ['6:12 error missing-event-kind'],
    message: /unknown field "outage"\): expected one of [^(]*$/,
  },
  {
    name: 'two event kinds in one entry are ambiguous',
    events: '- {at: 1m, kubelet: stop, delete: Node/node-a1, nodes: [node-a1]}\n',
    want: ['6:27 error ambiguous-event'],
  },
  { name: 'a bad at: offset', events: '- {at: 1 minute, kubelet: stop, nodes: [node-a1]}\n', want: ['6:8 error bad-duration'] },
  {
    name: 'a number without a unit for at:',
    events: '- {at: 30, kubelet: stop, nodes: [node-a1]}\n',
    want: ['6:8 error bad-duration'],
    message: /with a unit/,
  },
  {
    name: "a bad at: does not hide the event's other mistakes: all are told at once",
    events: '- {at: 30, kubelet: stopped, nodes: node-a1}\n',
    want: ['6:8 error bad-duration', '6:21 error bad-value', '6:37 error wrong-type'],
  },
  {
    name: 'a kubelet action in another form of the word is suggested (stopped: stop)',
    events: '- {at: 1m, kubelet: stopped, nodes: [node-a1]}\n',
    want: ['6:21 error bad-value'],
    message: /found "stopped" \(did you mean stop\?\)/,
  },
  {
    name: 'nodes: given one name, not a list, says how to write one node',
    events: '- {at: 1m, kubelet: stop, nodes: node-a1}\n',
    want: ['6:34 error wrong-type'],
    message: /found the string "node-a1"; for one node write nodes: \[node-a1\] or node: node-a1/,
  },
  { name: 'a missing at:', events: '- {kubelet: stop, nodes: [node-a1]}\n', want: ['6:4 error missing-field'] },
  {
    name: 'a node that is not in the snapshot',
    events: '- {at: 1m, kubelet: stop, nodes: [node-a1, node-a3]}\n',
    want: ['6:44 error unknown-node'],
    message: /did you mean node-a1\?/,
  },
  {
    name: 'an event told wrong for its value still has its unknown node told (both mistakes at once)',
    events: '- {at: 1m, kubelet: stopp, nodes: [node-zz]}\n',
    want: ['6:21 error bad-value', '6:36 error unknown-node'],
    message: /found "stopp" \(did you mean stop\?\)/,
  },
  {
    name: 'an event with a bad at: still has its unknown pod told',
    events: '- {at: soon, delete: Pod/default/web-7d9f-abcdf}\n',
    want: ['6:8 error bad-duration', '6:22 error unknown-pod'],
  },
  {
    name: 'a wrong event before a right one: each unknown name is told once, where it is',
    events: '- {at: 1m, kubelet: stopp, nodes: [node-zz]}\n- {at: 2m, kubelet: stop, nodes: [node-yy]}\n',
    want: ['6:21 error bad-value', '7:35 error unknown-node', '6:36 error unknown-node'],
  },
  {
    name: 'a node a wrong apply would create is not told unknown in the events that name it (one mistake, told once)',
    events: '- {at: soon, apply: {apiVersion: v1, kind: Node, metadata: {name: node-new}}}\n- {at: 3m, kubelet: stop, node: node-new}\n',
    want: ['6:8 error bad-duration'],
  },
  { name: 'a pod that is not in the snapshot', events: '- {at: 1m, delete: Pod/default/web-7d9f-abcdf}\n', want: ['6:20 error unknown-pod'] },
  {
    name: 'a ReplicaSet that is not in the snapshot',
    events: '- {at: 1m, scale: {replicaSet: default/api, replicas: 1}}\n',
    want: ['6:32 error unknown-replicaset'],
  },
  { name: 'a zone with no nodes is a warning', events: '- {at: 1m, kubelet: stop, zone: us-east-1c}\n', want: ['6:33 warning unknown-zone'] },
  {
    name: 'a selector that matches no node is a warning',
    events: '- {at: 1m, kubelet: stop, selector: {matchLabels: {tier: gpu}}}\n',
    want: ['6:37 warning selector-matches-nothing'],
    message: /tier=gpu/,
  },
  {
    name: 'an event before the start time is a warning',
    events: '- {at: "2025-12-31T00:00:00Z", kubelet: stop, nodes: [node-a1]}\n',
    want: ['6:8 warning event-before-start'],
    message: /before startTime \(2026-01-01T00:00:00.000Z\)/,
  },
  { name: 'a bad object reference', events: '- {at: 1m, delete: Service/default/web}\n', want: ['6:20 error bad-reference'] },
  {
    name: 'a condition status that is not a status',
    events: '- {at: 1m, node: node-a1, condition: {type: Ready, status: Maybe}}\n',
    want: ['6:60 error bad-condition-status'],
  },
  {
    name: 'a taint with a bad effect',
    events: '- {at: 1m, node: node-a1, taint: {key: k, effect: NoExecut}}\n',
    want: ['6:51 error bad-taint-effect'],
    message: /found the string "NoExecut" \(did you mean NoExecute\?\)/,
  },
  {
    name: 'a taint written as text with an effect in lower case',
    events: '- {at: 1m, node: node-a1, taint: "k:noexecute"}\n',
    want: ['6:34 error bad-taint'],
    message: /found "noexecute" \(did you mean k:NoExecute\?\)/,
  },
  {
    name: "a taint's node written inside taint: says where it goes",
    events: '- {at: 1m, taint: {node: node-a1, key: k, effect: NoExecute}}\n',
    want: ['6:12 error missing-target', '6:20 error unknown-field'],
    message: /which nodes\?/,
  },
  {
    name: "an untaint's nodes written inside untaint: says where they go",
    events: '- {at: 1m, untaint: {nodes: [node-a1], key: k}}\n',
    want: ['6:12 error missing-target', '6:22 error unknown-field'],
  },
  {
    name: "a condition's node written inside condition: says where it goes",
    events: '- {at: 1m, condition: {node: node-a1, type: Ready, status: "False"}}\n',
    want: ['6:12 error missing-target', '6:24 error unknown-field'],
  },
  { name: 'a taint without effect', events: '- {at: 1m, node: node-a1, taint: {key: k}}\n', want: ['6:34 error missing-field'] },
  { name: 'a kubelet action that is not start or stop', events: '- {at: 1m, kubelet: pause, nodes: [node-a1]}\n', want: ['6:21 error bad-value'] },
  { name: 'two targets at once', events: '- {at: 1m, kubelet: stop, node: node-a1, zone: us-east-1a}\n', want: ['6:42 error ambiguous-target'] },
  { name: 'a fail event with an unknown verb', events: '- {at: 1m, fail: {verb: get, resource: pods}}\n', want: ['6:25 error bad-value'] },
  {
    name: 'a replica count that is not a whole number',
    events: '- {at: 1m, scale: {replicaSet: default/web, replicas: "8"}}\n',
    want: ['6:55 error wrong-type'],
  },
  { name: 'a pod event that changes nothing', events: '- {at: 1m, pod: default/web-7d9f-abcde}\n', want: ['6:12 error missing-field'] },
  {
    name: 'an applied object with a wrongly typed field',
    events: '- {at: 1m, apply: {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {tolerations: [{operator: Exists, tolerationSeconds: soon}]}}}\n',
    want: ['6:127 error wrong-type'],
  },
  {
    name: 'events out of time order are a warning (and are sorted)',
    events: '- {at: 2m, kubelet: stop, nodes: [node-a1]}\n- {at: 1m, kubelet: start, nodes: [node-a1]}\n',
    want: ['7:3 warning events-out-of-order'],
  },
  {
    name: 'an unknown top-level key gets a did-you-mean',
    events: '  []\n',
    extra: 'controllerMemmory: fresh\n',
    want: ['7:1 error unknown-field'],
    message: /did you mean controllerMemory\?/,
  },
  {
    name: 'a kubelet setting that is not a duration',
    events: '  []\n',
    extra: 'kubelet: {nodeStatusUpdateFrequency: 10}\n',
    want: ['7:38 error bad-duration'],
  },
  {
    name: 'an unknown kubelet setting',
    events: '  []\n',
    extra: 'kubelet: {nodeStatusUpdateFrequncy: 10s}\n',
    want: ['7:11 error unknown-field'],
    message: /did you mean nodeStatusUpdateFrequency\?/,
  },
  {
    name: 'a feature gate that is not a boolean',
    events: '  []\n',
    extra: 'controllerManager: {featureGates: {NodeLease: "yes"}}\n',
    want: ['7:47 error wrong-type'],
  },
  { name: 'a missing config file', events: '  []\n', extra: 'controllerManager: {configFile: ./kcm.yaml}\n', want: ['7:33 error file-not-found'] },
  {
    name: 'an expectation with a bad at: still has its unknown pod told',
    events: '  []\n',
    extra: 'expect:\n- {at: soon, pod: default/nope, deleted: true}\n',
    want: ['8:8 error bad-duration', '8:19 warning unknown-pod'],
  },
  { name: 'an expectation that checks nothing', events: '  []\n', extra: 'expect:\n- {at: 1m, node: node-a1}\n', want: ['8:3 error missing-field'] },
  {
    name: 'an expectation with an unknown zone state',
    events: '  []\n',
    extra: 'expect:\n- {at: 1m, zone: us-east-1a, state: Broken}\n',
    want: ['8:37 error bad-value'],
  },
  { name: 'a bad start time', events: '  []\n', extra: 'startTime: "2026-01-01 noon"\n', want: ['7:12 error bad-timestamp'] },
  {
    name: 'a top-level name says it goes under metadata',
    events: '  []\n',
    extra: 'name: my-outage\n',
    want: ['7:1 error unknown-field'],
    message: /goes under metadata: metadata: \{name: \.\.\.\}/,
  },
  {
    name: "settings says where kube-controller-manager's settings go",
    events: '  []\n',
    extra: 'settings: {nodeMonitorGracePeriod: 20s}\n',
    want: ['7:1 error unknown-field'],
    message: /go under controllerManager:/,
  },
  { name: 'timeline is suggested as events', events: '  []\n', extra: 'timeline: []\n', want: ['7:1 error unknown-field'], message: /did you mean events\?/ },
  {
    name: 'an alias is no hint for a key the table does not name (toString is not a key of ours)',
    events: '  []\n',
    extra: 'toString: 1\n',
    want: ['7:1 error unknown-field'],
    message: /unknown field "toString" in the scenario; expected one of/,
  },
];

for (const c of problemCases) {
  test(`a scenario problem is reported where it is: ${c.name}`, () => {
    const { problems } = scenario(c.events, c.extra);
    assert.deepEqual(problems.map(at), c.want);
    for (const p of problems) assert.equal(p.position!.file, '/s/scenario.yaml');
    if (c.message) assert.match(problems[0].message, c.message);
  });
}

test('snapshot: may list several paths relative to the scenario, and a missing one is an error at its entry', () => {
  const fs = new MemoryFs({
    '/s/a/nodes.yaml': 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n',
    '/s/b.json': '{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n2"}}',
  });
  const text =
    'kind: Scenario\nkubernetesVersion: "1.31"\nsnapshot:\n- a/nodes.yaml\n- ./b.json\n- missing.yaml\nobjects: [{apiVersion: v1, kind: Node, metadata: {name: n3}}]\n';
  const { scenario: s, problems } = parseScenario(text, '/s/scenario.yaml', fs);
  assert.deepEqual([...s.snapshot.cluster.nodes.keys()], ['n1', 'n2', 'n3']);
  assert.deepEqual(s.snapshot.files, ['/s/a/nodes.yaml', '/s/b.json']);
  assert.deepEqual(notStart(problems).map(at), ['6:3 error file-not-found']);
  assert.match(problems[0].message, /looked for \/s\/missing\.yaml/);
});

// A snapshot the scenario could not read leaves its objects unknown: its one error is the
// answer, and the names the timeline and the expectations give are not reported missing
// (they were, one error or warning per name, in the command line and the language server).
const unreadSnapshotCases: { name: string; files: Record<string, string>; snapshot: string; want: string[] }[] = [
  { name: 'a snapshot path with a typo', files: {}, snapshot: './nodes.yml', want: ['3:11 error file-not-found'] },
  {
    name: 'one of two snapshots missing',
    files: { '/s/a.yaml': 'apiVersion: v1\nkind: Node\nmetadata: {name: other}\n' },
    snapshot: '[a.yaml, b.yaml]',
    want: ['3:20 error file-not-found'],
  },
  {
    name: 'the scenario file itself named as its snapshot',
    files: { '/s/scenario.yaml': 'kind: Scenario\n' },
    snapshot: './scenario.yaml',
    want: ['3:11 error snapshot-is-scenario'],
  },
  {
    name: 'a snapshot outside the workspace',
    files: { '/elsewhere/nodes.yaml': 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n' },
    snapshot: '/elsewhere/nodes.yaml',
    want: ['3:11 error path-outside'],
  },
];
for (const c of unreadSnapshotCases) {
  test(`an unread snapshot: no false unknown names: ${c.name}`, () => {
    const text = `kind: Scenario
kubernetesVersion: "1.31"
snapshot: ${c.snapshot}
events:
- {at: 30s, kubelet: stop, nodes: [n1]}
- {at: 40s, scale: {replicaSet: default/web, replicas: 2}}
- {at: 50s, kubelet: stop, zone: us-east-1a}
expect:
- {at: 1m, node: n1, ready: Unknown}
- {at: 1m, pod: default/web-1, deleted: true}
`;
    const { problems } = parseScenario(text, '/s/scenario.yaml', new MemoryFs(c.files), { roots: ['/s'] });
    assert.deepEqual(notStart(problems).map(at), c.want);
  });
}

test('a snapshot that was read still gets its unknown names reported', () => {
  const text = `kind: Scenario
kubernetesVersion: "1.31"
snapshot: nodes.yaml
events:
- {at: 30s, kubelet: stop, nodes: [n2]}
expect:
- {at: 1m, node: n3, ready: Unknown}
`;
  const { problems } = parseScenario(text, '/s/scenario.yaml', new MemoryFs({ '/s/nodes.yaml': 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n' }));
  assert.deepEqual(notStart(problems).map(at), ['5:36 error unknown-node', '7:18 warning unknown-node']);
});

test('kubernetesVersion written as a YAML number: 1.12 is accepted with a warning, 1.20 (read as 1.2) is rejected', () => {
  const fs = new MemoryFs();
  const doc = (v: string) => `kind: Scenario\nkubernetesVersion: ${v}\nobjects: []\n`;
  const ok = parseScenario(doc('1.12'), 's.yaml', fs);
  assert.equal(ok.scenario.kubernetesVersion, '1.12');
  assert.deepEqual(notStart(ok.problems).map(at), ['2:20 warning version-as-number']);
  const bad = parseScenario(doc('1.20'), 's.yaml', fs);
  assert.deepEqual(notStart(bad.problems).map(at), ['2:20 error version-as-number']);
  assert.match(bad.problems[0].message, /read by YAML as the number 1\.2; quote it/);
  const old = parseScenario(doc('"1.11"'), 's.yaml', fs);
  assert.deepEqual(notStart(old.problems).map(at), ['2:20 error unsupported-version']);
});

test('inline objects are a snapshot, with problems positioned in the scenario file', () => {
  const text = `kind: Scenario
kubernetesVersion: "1.31"
objects:
- {apiVersion: v1, kind: Node, metadata: {name: n1}}
- apiVersion: v1
  kind: Node
  metadata: {name: n2}
  spec:
    taints: [{key: k, effect: Sometimes}]
events:
- {at: 10s, kubelet: stop, node: n2}
`;
  const { scenario: s, problems } = parseScenario(text, 'inline.yaml', new MemoryFs());
  assert.deepEqual([...s.snapshot.cluster.nodes.keys()], ['n1', 'n2']);
  assert.deepEqual(notStart(problems).map(at), ['9:31 error bad-taint-effect']);
  assert.equal(s.events.length, 1);
});

test('YAML syntax errors in a scenario are problems with positions, and the document is returned for the language server', () => {
  const { problems, document } = parseScenario('kind: Scenario\nevents: [\n', 'broken.yaml', new MemoryFs());
  assert.ok(document);
  assert.ok(problems.length >= 1);
  assert.equal(problems[0].code, 'yaml-syntax');
  // at the "[" left open (unclosedFlow.ts), not at the end of the file where the parser gave up
  assert.equal(`${problems[0].position!.line}:${problems[0].position!.column}`, '2:9');
  assert.match(problems[0].message, /is not closed by line 3, column 1/);
});

test('a scenario that is not a mapping is a problem, not a crash', () => {
  const { problems } = parseScenario('- just\n- a list\n', 'list.yaml', new MemoryFs());
  assert.deepEqual(problems.map(at), ['1:1 error not-a-scenario']);
});

test('a plain snapshot file is a scenario with plainSnapshot: true', () => {
  const s = loadScenario(resolve(FIXTURES, 'cluster.yaml'), nodeFs());
  assert.equal(s.plainSnapshot, true);
  assert.equal(s.kubernetesVersion, '1.12', 'the version the kubelets report');
  assert.equal(s.snapshot.cluster.nodes.size, 3);
});

test('scenario files are told from snapshots by their kind or apiVersion', () => {
  assert.equal(isScenarioText('apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\n'), true);
  assert.equal(isScenarioText('kind: "Scenario" # a comment\n'), true);
  assert.equal(isScenarioText('{"kind": "Scenario"}'), true);
  assert.equal(isScenarioText('apiVersion: v1\nkind: List\nitems: []\n'), false);
  assert.equal(isScenarioText('{"kind": "List", "items": [{"kind": "ScenarioThing"}]}'), false);
});

test('taints and did-you-mean helpers (object references: model/objectRef.test.ts)', () => {
  assert.deepEqual(parseTaintText('node.kubernetes.io/unreachable:NoExecute'), { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' });
  assert.deepEqual(parseTaintText('a=b:NoSchedule'), { key: 'a', value: 'b', effect: 'NoSchedule' });
  assert.ok('error' in parseTaintText('a:Never'));
  assert.equal(didYouMean('nodez', ['nodes', 'node', 'zone']), 'nodes');
  assert.equal(didYouMean('completely-different', ['nodes', 'zone']), undefined);
});

test("a target written inside an event's action says it goes beside the action, at the event's level", () => {
  const cases: [string, RegExp][] = [
    [
      '- {at: 1m, taint: {node: node-a1, key: k, effect: NoExecute}}\n',
      /unknown field "node" in event 1: taint \(the nodes an event acts on are named beside taint:, at the event's level/,
    ],
    ['- {at: 1m, untaint: {nodes: [node-a1], key: k}}\n', /unknown field "nodes" in event 1: untaint \(the nodes an event acts on are named beside untaint:/],
    [
      '- {at: 1m, condition: {zone: us-east-1a, type: Ready, status: "False"}}\n',
      /unknown field "zone" in event 1: condition \(the nodes an event acts on are named beside condition:/,
    ],
  ];
  for (const [events, want] of cases) {
    const unknown = scenario(events).problems.filter((p) => p.code === 'unknown-field');
    assert.equal(unknown.length, 1, events);
    assert.match(unknown[0].message, want);
  }
});
