/**
 * `kubectl get events -o yaml|json`, core v1 and events.k8s.io/v1: each
 * reason becomes the trace's decision (or a world observation); broken
 * documents, other kinds and events without a time are positioned warnings.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importEvidence } from '../../../src/engine/import/index';
import { formatTime } from '../../../src/engine/model/time';
import { stringify } from 'yaml';
import { importKubectlEvents } from '../../../src/engine/import/kubectlEvents';
import { emptyResult } from '../../../src/engine/import/types';
import { readKubectlYaml } from '../../../src/engine/snapshot/kubectlYaml';

const read = (text: string) => importEvidence([{ name: 'events.yaml', chunks: [text] }]);
const decisions = (text: string) =>
  read(text).decisions.map((d) => `${formatTime(d.time)} ${d.controller} ${d.action} ${d.object}${d.detail ? ' ' + d.detail : ''}`);

const v1 = (reason: string, kind: string, ns: string, name: string, message: string, component = 'node-controller', extra = '') => `
- apiVersion: v1
  kind: Event
  metadata: {name: e, namespace: ${ns || 'default'}}
  involvedObject: {kind: ${kind}, ${ns ? `namespace: ${ns}, ` : ''}name: ${name}}
  reason: ${reason}
  message: "${message}"
  source: {component: ${component}}
  firstTimestamp: "2026-01-01T00:01:05Z"
  lastTimestamp: "2026-01-01T00:01:05Z"
  count: 1${extra}`;
const list = (...items: string[]) => `apiVersion: v1\nkind: List\nitems:${items.join('')}\n`;

describe('kubectl get events: each reason', () => {
  const cases: { name: string; item: string; want: string[] }[] = [
    {
      name: 'RegisteredNode is NodeRegistered',
      item: v1('RegisteredNode', 'Node', '', 'n1', 'Node n1 event: Registered Node n1 in Controller'),
      want: ['2026-01-01T00:01:05.000Z node-lifecycle NodeRegistered Node/n1'],
    },
    {
      name: 'RemovingNode is NodeRemoved',
      item: v1('RemovingNode', 'Node', '', 'n1', 'Node n1 event: Removing Node n1 from Controller'),
      want: ['2026-01-01T00:01:05.000Z node-lifecycle NodeRemoved Node/n1'],
    },
    {
      name: 'NodeNotReady on a Pod is PodsMarkedNotReady of that pod',
      item: v1('NodeNotReady', 'Pod', 'default', 'web-1', 'Node is not ready'),
      want: ['2026-01-01T00:01:05.000Z node-lifecycle PodsMarkedNotReady Pod/default/web-1'],
    },
    {
      name: 'NodeNotReady on a Node from node-controller is PodsMarkedNotReady of the node',
      item: v1('NodeNotReady', 'Node', '', 'n1', 'Node n1 status is now: NodeNotReady'),
      want: ['2026-01-01T00:01:05.000Z node-lifecycle PodsMarkedNotReady Node/n1'],
    },
    {
      name: 'NodeNotReady from the kubelet is not a controller decision',
      item: v1('NodeNotReady', 'Node', '', 'n1', 'Node n1 status is now: NodeNotReady', 'kubelet'),
      want: [],
    },
    {
      name: 'TaintManagerEviction "Marking for deletion" is PodEvicted',
      item: v1('TaintManagerEviction', 'Pod', 'default', 'web-1', 'Marking for deletion Pod default/web-1', 'taint-eviction-controller'),
      want: ['2026-01-01T00:01:05.000Z taint-eviction PodEvicted Pod/default/web-1'],
    },
    {
      name: 'TaintManagerEviction "Cancelling deletion" is PodEvictionCancelled',
      item: v1('TaintManagerEviction', 'Pod', 'default', 'web-1', 'Cancelling deletion of Pod default/web-1'),
      want: ['2026-01-01T00:01:05.000Z taint-eviction PodEvictionCancelled Pod/default/web-1'],
    },
    {
      name: "NodeControllerEviction is the 1.12 path's PodEvicted",
      item: v1('NodeControllerEviction', 'Pod', 'default', 'web-1', 'Marking for deletion Pod web-1 from Node n1'),
      want: ['2026-01-01T00:01:05.000Z node-lifecycle PodEvicted Pod/default/web-1'],
    },
    {
      name: 'SuccessfulCreate on a ReplicaSet is PodsCreated with the pod',
      item: v1('SuccessfulCreate', 'ReplicaSet', 'default', 'web', 'Created pod: web-abcde', 'replicaset-controller'),
      want: ['2026-01-01T00:01:05.000Z replicaset PodsCreated ReplicaSet/default/web web-abcde'],
    },
    {
      name: 'SuccessfulCreate on a StatefulSet is not simulated',
      item: v1('SuccessfulCreate', 'StatefulSet', 'default', 'db', 'create Pod db-0 in StatefulSet db successful', 'statefulset-controller'),
      want: [],
    },
    {
      name: 'SuccessfulDelete on a ReplicaSet is PodsDeleted',
      item: v1('SuccessfulDelete', 'ReplicaSet', 'default', 'web', 'Deleted pod: web-abcde', 'replicaset-controller'),
      want: ['2026-01-01T00:01:05.000Z replicaset PodsDeleted ReplicaSet/default/web web-abcde'],
    },
    { name: 'Killing by the kubelet is no decision', item: v1('Killing', 'Pod', 'default', 'web-1', 'Stopping container web', 'kubelet'), want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(decisions(list(c.item)), c.want));

  it('an event seen twice is a decision at its first and at its last time', () => {
    const item = v1('NodeNotReady', 'Node', '', 'n1', 'x')
      .replace('lastTimestamp: "2026-01-01T00:01:05Z"', 'lastTimestamp: "2026-01-01T00:09:00Z"')
      .replace('count: 1', 'count: 2');
    assert.deepEqual(
      decisions(list(item)).map((d) => d.slice(0, 24)),
      ['2026-01-01T00:01:05.000Z', '2026-01-01T00:09:00.000Z'],
    );
  });
  it('an event seen five times says the three in between are not placed', () => {
    const item = v1('NodeNotReady', 'Node', '', 'n1', 'x')
      .replace('lastTimestamp: "2026-01-01T00:01:05Z"', 'lastTimestamp: "2026-01-01T00:09:00Z"')
      .replace('count: 1', 'count: 5');
    assert.deepEqual(
      read(list(item)).problems.map((p) => p.code),
      ['event-series'],
    );
  });
  it("the kubelet's events on a pod say which node it ran on", () => {
    const item = v1('Killing', 'Pod', 'default', 'web-1', 'Stopping container', 'kubelet').replace(
      'source: {component: kubelet}',
      'source: {component: kubelet, host: n7}',
    );
    assert.deepEqual(
      read(list(item))
        .observations.filter((o) => o.kind === 'pod-on-node')
        .map((o) => o.kind === 'pod-on-node' && `${o.pod} ${o.node}`),
      ['Pod/default/web-1 n7'],
    );
  });
});

describe('kubectl get events: formats and bad input', () => {
  it('events.k8s.io/v1 (regarding, note, reportingController, eventTime, series) is read', () => {
    const text = `apiVersion: v1
kind: List
items:
- apiVersion: events.k8s.io/v1
  kind: Event
  metadata: {name: e, namespace: default}
  regarding: {kind: Pod, namespace: default, name: web-1}
  reason: TaintManagerEviction
  note: Marking for deletion Pod default/web-1
  reportingController: taint-eviction-controller
  eventTime: "2026-01-01T00:06:10.123456Z"
`;
    assert.deepEqual(decisions(text), ['2026-01-01T00:06:10.123Z taint-eviction PodEvicted Pod/default/web-1']);
  });
  it('-o json is read the same', () => {
    const json = JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'EventList',
        items: [
          {
            apiVersion: 'v1',
            kind: 'Event',
            involvedObject: { kind: 'Node', name: 'n1' },
            reason: 'RegisteredNode',
            message: 'm',
            source: { component: 'node-controller' },
            firstTimestamp: '2026-01-01T00:00:00Z',
            count: 1,
          },
        ],
      },
      null,
      4,
    );
    assert.deepEqual(decisions(json), ['2026-01-01T00:00:00.000Z node-lifecycle NodeRegistered Node/n1']);
  });
  it('a pasted prompt and command before the YAML are skipped, and positions still count them', () => {
    const text = `$ kubectl get events -A -o yaml\n${list(v1('RegisteredNode', 'Node', '', 'n1', 'm'), '\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: x}')}`;
    const r = read(text);
    assert.equal(r.decisions.length, 1);
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}`),
      ['unknown-kind 15'],
    );
  });
  it('an event without any time is a positioned warning and the others import', () => {
    const noTime = v1('RegisteredNode', 'Node', '', 'n2', 'm').replace(/\n {2}firstTimestamp.*\n {2}lastTimestamp.*/, '');
    const r = read(list(noTime, v1('RegisteredNode', 'Node', '', 'n1', 'm')));
    assert.deepEqual(
      r.decisions.map((d) => d.object),
      ['Node/n1'],
    );
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}`),
      ['missing-time 4'],
    );
  });
  it('broken YAML is a positioned warning, and what parses still imports', () => {
    const r = read(`${list(v1('RegisteredNode', 'Node', '', 'n1', 'm'))}---\nkind: EventList\nitems: [ {\n`);
    assert.deepEqual(
      r.decisions.map((d) => d.object),
      ['Node/n1'],
    );
    assert.ok(
      r.problems.some((p) => p.code === 'yaml-syntax' && p.position!.line >= 15),
      JSON.stringify(r.problems),
    );
    // the yaml package's own "at line N" counts from the piece, not the file: left out of the message
    for (const p of r.problems) assert.doesNotMatch(p.message, /at line \d/, p.message);
  });
  it('a broken item of a List: its message names no line of its own, its position is the file line', () => {
    const r = read('apiVersion: v1\nkind: EventList\nitems:\n- involvedObject: {kind: Node, name: n1}\n  reason: NodeNotReady\n  message: [unclosed\n');
    const syntax = r.problems.filter((p) => p.code === 'yaml-syntax');
    assert.equal(syntax.length, 1, JSON.stringify(r.problems));
    // at the "[" it does not close (unclosedFlow.ts); where the parser stopped named by the file's line, not the item's
    assert.equal(syntax[0].position!.line, 6);
    assert.match(
      syntax[0].message,
      /^the flow sequence opened here with "\[" is not closed by line 7, column 1: .*\(yaml: Flow sequence in block collection must be sufficiently indented and end with a \]\); the rest is read$/,
    );
  });
});

describe('kubectl get events: size', () => {
  it('a YAML export of any size streams item by item: each event at its line, a piece over the limit left out with its position', async () => {
    const { importKubectlEvents } = await import('../../../src/engine/import/kubectlEvents');
    const { linesOf } = await import('../../../src/engine/import/lines');
    const { emptyResult } = await import('../../../src/engine/import/types');
    const event = (n: string) => v1('RegisteredNode', 'Node', '', n, `Node ${n} event: Registered Node ${n} in Controller`);
    const long = v1('RegisteredNode', 'Node', '', 'n9', 'x'.repeat(600));
    const table: { name: string; text: string; want: string[]; problems: string[] }[] = [
      {
        name: 'a List (kubectl get events -o yaml) over the limit, its kind after the items',
        text: `$ kubectl get events -A -o yaml\napiVersion: v1\nitems:${event('n1')}${event('n2')}${event('n3')}\nkind: EventList\nmetadata:\n  resourceVersion: ""\n`,
        want: ['NodeRegistered Node/n1 4', 'NodeRegistered Node/n2 14', 'NodeRegistered Node/n3 24'],
        problems: [],
      },
      {
        name: 'an item over the limit among others',
        text: list(event('n1'), long, event('n2')),
        want: ['NodeRegistered Node/n1 4', 'NodeRegistered Node/n2 24'],
        problems: ['file-too-large 14'],
      },
      {
        name: 'one Event a document',
        text: ['n1', 'n2']
          .map(
            (n) =>
              `---${event(n)
                .replace(/^\n- /, '\n')
                .replace(/\n {2}/g, '\n')}\n`,
          )
          .join(''),
        want: ['NodeRegistered Node/n1 2', 'NodeRegistered Node/n2 13'],
        problems: [],
      },
    ];
    for (const row of table) {
      const into = emptyResult();
      importKubectlEvents('big.yaml', linesOf([row.text]), into, 400);
      assert.ok(row.text.length > 400 || row.name.startsWith('one'), row.name);
      assert.deepEqual(
        into.decisions.map((d) => `${d.action} ${d.object} ${d.evidence.line}`),
        row.want,
        row.name,
      );
      assert.deepEqual(
        into.problems.map((p) => `${p.code} ${p.position?.line}`),
        row.problems,
        row.name,
      );
    }
  });
  it('a JSON export over the same limit is read item by item, each event at its own line', async () => {
    const { importKubectlEvents } = await import('../../../src/engine/import/kubectlEvents');
    const { linesOf } = await import('../../../src/engine/import/lines');
    const { emptyResult } = await import('../../../src/engine/import/types');
    const event = (name: string, t: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { kind: 'Node', name },
      reason: 'RegisteredNode',
      message: `Node ${name} event: Registered Node ${name} in Controller`,
      source: { component: 'node-controller' },
      firstTimestamp: t,
      lastTimestamp: t,
      count: 1,
    });
    const text = JSON.stringify({ apiVersion: 'v1', items: [event('n1', '2026-01-01T00:00:00Z'), event('n2', '2026-01-01T00:00:05Z')], kind: 'List' }, null, 4);
    const into = emptyResult();
    importKubectlEvents('big.json', linesOf([`$ kubectl get events -A -o json\n${text}`]), into, 100);
    assert.deepEqual(into.problems, []);
    assert.deepEqual(
      into.decisions.map((d) => `${d.action} ${d.object} ${d.evidence.line}`),
      ['NodeRegistered Node/n1 5', 'NodeRegistered Node/n2 21'],
    );
  });
  it('a broken JSON export: the broken event is left out with its position, the others read', async () => {
    const r = importEvidence([
      {
        name: 'e.json',
        chunks: [
          '{\n"kind": "EventList", "apiVersion": "v1", "items": [\n{"kind": "Event", "involvedObject": {"kind": "Node", "name": "n1"}, "reason": "RegisteredNode", "firstTimestamp": "2026-01-01T00:00:00Z"},\n{"kind": "Event", "reason": tru},\n{"kind": "Event", "involvedObject": {"kind": "Node", "name": "n2"}, "reason": "RegisteredNode", "firstTimestamp": "2026-01-01T00:00:01Z"}\n]}\n',
        ],
      },
    ]);
    assert.deepEqual(
      r.decisions.map((d) => d.object),
      ['Node/n1', 'Node/n2'],
    );
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}`),
      ['json-syntax 4'],
    );
  });
});

describe('kubectl get events -o json, compact (jq -c): the List on one line', () => {
  const ev = (reason: string, node: string, t: string) =>
    `{"apiVersion":"v1","count":1,"firstTimestamp":"${t}","involvedObject":{"kind":"Node","name":"${node}"},"kind":"Event","lastTimestamp":"${t}","message":"Node ${node} status is now: ${reason}","metadata":{"name":"${node}.1","namespace":"default"},"reason":"${reason}","source":{"component":"node-controller"},"type":"Normal"}`;
  const rows: [name: string, text: string, want: string[]][] = [
    [
      'core v1 Events in a List whose kind comes last',
      `{"apiVersion":"v1","items":[${ev('NodeNotReady', 'n1', '2024-01-01T00:00:00Z')},${ev('RegisteredNode', 'n2', '2024-01-01T00:01:00Z')}],"kind":"List","metadata":{"resourceVersion":""}}\n`,
      ['kubectl-events 2024-01-01T00:00:00.000Z PodsMarkedNotReady Node/n1', 'kubectl-events 2024-01-01T00:01:00.000Z NodeRegistered Node/n2'],
    ],
    ['a bare array', `[${ev('NodeNotReady', 'n1', '2024-01-01T00:00:00Z')}]`, ['kubectl-events 2024-01-01T00:00:00.000Z PodsMarkedNotReady Node/n1']],
    ['a compact object that is not an Event stays unrecognised', '{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}', []],
  ];
  for (const [name, text, want] of rows) {
    it(name, () => {
      const r = importEvidence([{ name: 'events.json', chunks: [text] }]);
      assert.deepEqual(
        r.decisions.map((d) => `${d.evidence.format} ${formatTime(d.time)} ${d.action} ${d.object}`),
        want,
      );
      assert.equal(r.inputs[0].format, want.length ? 'kubectl-events' : 'unrecognised');
    });
  }
});

describe('kubectl get events -o yaml: read by kubectlYaml.ts as by the yaml package', () => {
  const linesOf = (text: string) => text.split('\n').map((t, i) => ({ n: i + 1, text: t }));
  const both = (text: string) => {
    const fast = emptyResult();
    const slow = emptyResult();
    importKubectlEvents('events.yaml', linesOf(text), fast);
    importKubectlEvents('events.yaml', linesOf(text), slow, undefined, false);
    return { fast, slow };
  };
  const core = (i: number, reason: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `e${i}`, namespace: 'default' },
    involvedObject: { kind: 'Node', name: `n${i}` },
    reason,
    message: `Node n${i} status is now: ${reason}`,
    source: { component: 'node-controller' },
    firstTimestamp: `2026-01-01T00:0${i}:05Z`,
    lastTimestamp: `2026-01-01T00:0${i}:05Z`,
    count: 1,
    ...extra,
  });
  const modern = (i: number) => ({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: `m${i}`, namespace: 'default' },
    regarding: { kind: 'Pod', namespace: 'default', name: `p${i}` },
    reason: 'TaintManagerEviction',
    note: 'Marking for deletion Pod default/p1',
    eventTime: `2026-01-01T00:0${i}:07.000000Z`,
    reportingController: 'taint-eviction-controller',
    reportingInstance: '',
    type: 'Normal',
  });
  const cases: [name: string, text: string, fast: boolean][] = [
    [
      'a kubectl List (`- ` at the parent), core v1',
      stringify({ apiVersion: 'v1', items: [core(1, 'NodeNotReady'), core(2, 'RegisteredNode')], kind: 'List' }, { indentSeq: false }),
      true,
    ],
    ['an EventList, indented, both APIs', stringify({ apiVersion: 'v1', items: [core(3, 'NodeReady'), modern(4)], kind: 'EventList' }), true],
    ['documents, one Event each', [core(1, 'NodeNotReady'), modern(2)].map((e) => `---\n${stringify(e)}`).join(''), true],
    [
      'an event without a time, one of another kind',
      stringify(
        { items: [core(1, 'NodeNotReady', { firstTimestamp: null, lastTimestamp: null }), { kind: 'Pod', metadata: { name: 'p' } }], kind: 'List' },
        { indentSeq: false },
      ),
      true,
    ],
    ['flow style, as the tests above write it (flow mappings)', list(v1('NodeNotReady', 'Node', '', 'n1', 'Node n1 status is now: NodeNotReady')), true],
    [
      'a duplicate key (the yaml package keeps the last)',
      'apiVersion: v1\nkind: List\nitems:\n- kind: Event\n  reason: NodeReady\n  reason: NodeNotReady\n  involvedObject:\n    kind: Node\n    name: n1\n  firstTimestamp: "2026-01-01T00:01:05Z"\n',
      false,
    ],
  ];
  for (const [name, text, fast] of cases) {
    it(name, () => {
      const { fast: f, slow: s } = both(text);
      assert.deepEqual(f, s);
      assert.ok(s.decisions.length + s.observations.length + s.problems.length > 0, 'something was read');
      assert.equal(readKubectlYaml(text) !== undefined, fast, 'the fast path');
    });
  }
});
