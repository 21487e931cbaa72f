/** `kubectl describe pod`: tolerations, the node, Terminating, Events; nodes and pods in one paste; malformed lines. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importEvidence } from '../../../src/engine/import/index';
import { parseToleration } from '../../../src/engine/import/describePod';
import { inferScenario } from '../../../src/engine/import/infer';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';

const at = parseTimestamp('2026-01-01T00:10:00Z')!;
const read = (text: string, anchorGiven = true) => importEvidence([{ name: 'pod.txt', chunks: [text] }], { anchor: at, anchorGiven });

const pod = (
  over: { status?: string; tolerations?: string[]; conditions?: string[]; events?: string[]; node?: string } = {},
) => `Name:                      web-1
Namespace:                 shop
Priority:                  0
Node:                      ${over.node ?? 'n1/10.0.0.1'}
Start Time:                Thu, 01 Jan 2026 00:00:00 +0000
Status:                    ${over.status ?? 'Running'}
Termination Grace Period:  30s
Controlled By:             ReplicaSet/web
Conditions:
  Type              Status
${(over.conditions ?? ['Ready             True']).map((c) => `  ${c}`).join('\n')}
Tolerations:                 ${(over.tolerations ?? ['<none>']).join('\n                             ')}
Events:
${table([['Type', 'Reason', 'Age', 'From', 'Message'], ['----', '------', '----', '----', '-------'], ...(over.events ?? []).map((e) => e.split(/ {2,}/))])}
`;

/** Rows in columns as wide as their widest cell and two blanks, as kubectl's tabwriter prints them. */
function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => `  ${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] + 2))).join('')}`).join('\n');
}

describe('kubectl describe pod', () => {
  const tolerations: [string, unknown][] = [
    [
      'node.kubernetes.io/unreachable:NoExecute op=Exists for 300s',
      { operator: 'Exists', key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
    ['node.kubernetes.io/not-ready:NoExecute op=Exists', { operator: 'Exists', key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
    ['dedicated=db:NoSchedule', { operator: 'Equal', key: 'dedicated', value: 'db', effect: 'NoSchedule' }],
    ['node.kubernetes.io/memory-pressure:NoSchedule op=Exists', { operator: 'Exists', key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }],
    ['op=Exists', { operator: 'Exists' }],
    [':NoExecute op=Exists for 0s', { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 }],
    ['key:NoWhere', undefined],
    ['', undefined],
  ];
  for (const [text, want] of tolerations) it(`the toleration ${JSON.stringify(text)}`, () => assert.deepEqual(parseToleration(text), want));

  it('the pod as an object: its node, owner, phase and tolerations; a node it ran on', () => {
    const r = read(pod({ tolerations: ['node.kubernetes.io/unreachable:NoExecute op=Exists for 60s'] }));
    const o = r.observations.find((x) => x.kind === 'object');
    assert.ok(o && o.kind === 'object');
    assert.deepEqual(o.object.spec, {
      nodeName: 'n1',
      tolerations: [{ operator: 'Exists', key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', tolerationSeconds: 60 }],
    });
    assert.deepEqual((o.object.metadata as { ownerReferences: unknown[] }).ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: '', controller: true },
    ]);
    assert.ok(r.observations.some((x) => x.kind === 'pod-on-node' && x.node === 'n1' && x.pod === 'Pod/shop/web-1'));
    assert.deepEqual(
      r.inputs.map((i) => i.format),
      ['describe-pod'],
    );
  });

  const evictions: [name: string, status: string, conditions: string[], events: string[], want: string[]][] = [
    [
      'Terminating with DisruptionTarget on a not-ready node: evicted at printing - lasts - grace',
      'Terminating (lasts 20s)',
      ['Ready             False', 'DisruptionTarget  True'],
      ['Warning  NodeNotReady  2m    node-controller  Node is not ready'],
      ['2026-01-01T00:08:00.000Z PodsMarkedNotReady Pod/shop/web-1', '2026-01-01T00:09:10.000Z PodEvicted Pod/shop/web-1'],
    ],
    [
      'Terminating without DisruptionTarget (a user delete): no eviction',
      'Terminating (lasts 20s)',
      ['Ready             True'],
      ['Warning  NodeNotReady  2m    node-controller  Node is not ready'],
      ['2026-01-01T00:08:00.000Z PodsMarkedNotReady Pod/shop/web-1'],
    ],
    ['DisruptionTarget on a Ready node (preemption, the eviction API): no eviction', 'Terminating (lasts 20s)', ['DisruptionTarget  True'], [], []],
    [
      "the taint manager's event",
      'Running',
      [],
      ['Normal   TaintManagerEviction  30s  taint-eviction-controller  Marking for deletion Pod shop/web-1'],
      ['2026-01-01T00:09:30.000Z PodEvicted Pod/shop/web-1'],
    ],
  ];
  for (const [name, status, conditions, events, want] of evictions) {
    it(name, () =>
      assert.deepEqual(
        read(pod({ status, conditions, events })).decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}`),
        want,
      ),
    );
  }

  it('nodes and pods in one paste are each read by their own importer', () => {
    const node =
      'Name:               n1\nRoles:              <none>\nConditions:\n  Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message\n  ----             ------    -----------------                 ------------------                ------              -------\n  Ready            Unknown   Thu, 01 Jan 2026 00:00:20 +0000   Thu, 01 Jan 2026 00:01:05 +0000   NodeStatusUnknown   Kubelet stopped posting node status.\n';
    const r = read(`${node}\n${pod()}\nName:         default\nLabels:       <none>\n`);
    assert.deepEqual(
      r.decisions.map((d) => `${d.action} ${d.object}`),
      ['NodeStatusUnknown Node/n1'],
    );
    assert.ok(r.observations.some((o) => o.kind === 'object'));
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}`),
      ['unknown-kind 24'],
    );
  });

  it('a malformed toleration is left out with a positioned warning; the rest is read', () => {
    const r = read(pod({ tolerations: ['node.kubernetes.io/unreachable:NoExecute op=Exists for 60s', 'what is this'] }));
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}:${p.position?.column}`),
      ['bad-toleration 13:30'],
    );
    const o = r.observations.find((x) => x.kind === 'object');
    assert.equal(o?.kind === 'object' && (o.object.spec as { tolerations: unknown[] }).tolerations.length, 1);
  });

  it('ages without --at, of a pod that prints no time, are read from the import time, said once', () => {
    const r = read(
      pod({
        events: ['Warning  NodeNotReady  2m    node-controller  Node is not ready', 'Warning  NodeNotReady  1m    node-controller  Node is not ready'],
      }).replace(/^Start Time:.*\n/m, ''),
      false,
    );
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['anchor-assumed'],
    );
  });

  it('ages without --at, of a pod that prints its Start Time, are read from when it was printed (describeClock.ts), said once', () => {
    const r = read(
      pod({ events: ['Normal   Scheduled     3m    default-scheduler  Assigned', 'Warning  NodeNotReady  1m    node-controller  Node is not ready'] }),
      false,
    );
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['anchor-inferred'],
    );
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action}`),
      ['2026-01-01T00:02:00.000Z PodsMarkedNotReady'],
    );
  });

  it('the scenario takes the pod as described, and its tolerationSeconds place the failure', () => {
    const r = read(
      pod({
        status: 'Terminating (lasts 20s)',
        conditions: ['DisruptionTarget  True'],
        tolerations: ['node.kubernetes.io/unreachable:NoExecute op=Exists for 30s'],
        events: ['Warning  NodeNotReady  2m    node-controller  Node is not ready'],
      }),
    );
    const plan = inferScenario(r, { anchor: at, anchorGiven: true, version: '1.29' });
    const p = plan.objects.find((o) => o.kind === 'Pod');
    assert.deepEqual(
      (p?.spec as { tolerations: { tolerationSeconds: number }[] }).tolerations.map((t) => t.tolerationSeconds),
      [30],
    );
    assert.equal((p?.status as { conditions: { status: string }[] }).conditions[0].status, 'True', 'Ready at the start, before the failure');
    // the eviction (00:09:10) less 30s and one monitor period is 00:08:35: later than the NodeNotReady event (00:08:00), which stays the first sign
    assert.match(plan.startWhy, /2026-01-01T00:08:00/);
  });
});
