/**
 * The taint manager on a pod update, through the whole simulation:
 * PodUpdated queues a pod whose nodeName or tolerations changed, and
 * handlePodUpdate runs processPodOnNode at once when the pod's node carries
 * NoExecute taints (v1.12 taint_manager.go, v1.29+ taint_eviction.go). The
 * decision says which update it handles and cites the apply or patch that
 * made it, so that `explain` leads back to the world event.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import type { KObject } from '../../../../src/engine/model/types';
import { at, node, pod, scenarioOf, T0_MICROS, type EventSpec } from '../../../helpers/scenario';
import { parseDuration } from '../../../../src/engine/model/time';
import type { DecisionList } from '../../../../src/engine/trace/decisionLog';

const MAINT = { key: 'example.com/maint', operator: 'Exists', effect: 'NoExecute' };
const bare = (name: string, spec: KObject = {}): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'x' }], ...spec },
});

interface Case {
  name: string;
  /** events after the taint on node b at 10s */
  events: EventSpec[];
  /** the taint-eviction decisions about Pod/default/p, as [action, offset] */
  want: [string, string][];
  /** the first of them: its trigger rule, and the index in `events` of the world event it cites */
  trigger?: RegExp;
  cites?: number;
  /** versions that differ from `want` (1.12 keeps a scheduled deletion when the tolerations become infinite) */
  want112?: [string, string][];
}

const cases: Case[] = [
  {
    name: 'a pod applied already bound to the tainted node, without a toleration, is deleted at once',
    events: [{ at: '20s', kind: 'apply', object: bare('p', { nodeName: 'b' }) } as EventSpec],
    want: [['PodEvicted', '20s']],
    trigger: /appeared already bound/,
    cites: 0,
  },
  {
    name: 'a pending pod patched onto the tainted node is deleted at once',
    events: [
      { at: '20s', kind: 'apply', object: bare('p') } as EventSpec,
      { at: '30s', kind: 'patch', ref: 'Pod/default/p', merge: { spec: { nodeName: 'b' } } } as EventSpec,
    ],
    want: [['PodEvicted', '30s']],
    trigger: /was bound to the node .*spec.nodeName changed/,
    cites: 1,
  },
  {
    name: 'a pod re-applied with a nodeName and a 100 s toleration is scheduled for deletion',
    events: [
      { at: '20s', kind: 'apply', object: bare('p') } as EventSpec,
      { at: '30s', kind: 'apply', object: bare('p', { nodeName: 'b', tolerations: [{ ...MAINT, tolerationSeconds: 100 }] }) } as EventSpec,
    ],
    want: [
      ['PodEvictionScheduled', '30s'],
      ['PodEvicted', '2m10s'],
    ],
    trigger: /was bound to the node/,
    cites: 1,
  },
  {
    name: 'a toleration that becomes infinite cancels the scheduled deletion (1.19+; 1.12 keeps it)',
    events: [
      { at: '20s', kind: 'apply', object: bare('p', { nodeName: 'b', tolerations: [{ ...MAINT, tolerationSeconds: 100 }] }) } as EventSpec,
      { at: '40s', kind: 'patch', ref: 'Pod/default/p', merge: { spec: { tolerations: [MAINT] } } } as EventSpec,
    ],
    want: [
      ['PodEvictionScheduled', '20s'],
      ['PodEvictionCancelled', '40s'],
    ],
    want112: [
      ['PodEvictionScheduled', '20s'],
      ['PodEvicted', '2m0s'],
    ],
    trigger: /appeared already bound/,
    cites: 0,
  },
  {
    // processPodOnNode: an existing work item whose CreatedAt + min is before now + min is kept, and a
    // work item made by an earlier update always is: a changed finite toleration does not reschedule
    name: 'a shortened toleration keeps the deletion scheduled first, at its deadline',
    events: [
      { at: '20s', kind: 'apply', object: bare('p', { nodeName: 'b', tolerations: [{ ...MAINT, tolerationSeconds: 100 }] }) } as EventSpec,
      { at: '40s', kind: 'patch', ref: 'Pod/default/p', merge: { spec: { tolerations: [{ ...MAINT, tolerationSeconds: 5 }] } } } as EventSpec,
    ],
    want: [
      ['PodEvictionScheduled', '20s'],
      ['PodEvicted', '2m0s'],
    ],
    trigger: /appeared already bound/,
    cites: 0,
  },
  {
    name: 'a toleration removed from a pod with a scheduled deletion deletes it at once',
    events: [
      { at: '20s', kind: 'apply', object: bare('p', { nodeName: 'b', tolerations: [{ ...MAINT, tolerationSeconds: 100 }] }) } as EventSpec,
      { at: '40s', kind: 'patch', ref: 'Pod/default/p', merge: { spec: { tolerations: [] } } } as EventSpec,
    ],
    want: [
      ['PodEvictionScheduled', '20s'],
      ['PodEvicted', '40s'],
    ],
    trigger: /appeared already bound/,
    cites: 0,
  },
  {
    name: 'a pod that tolerated the taint forever is scheduled for deletion when its toleration gets tolerationSeconds',
    events: [
      { at: '5s', kind: 'apply', object: bare('p', { nodeName: 'b', tolerations: [MAINT] }) } as EventSpec,
      { at: '40s', kind: 'patch', ref: 'Pod/default/p', merge: { spec: { tolerations: [{ ...MAINT, tolerationSeconds: 30 }] } } } as EventSpec,
    ],
    want: [
      ['PodEvictionScheduled', '40s'],
      ['PodEvicted', '1m10s'],
    ],
    trigger: /tolerations changed/,
    cites: 1,
  },
];

function run(minor: number, c: Case): { trace: DecisionList; worldSeqs: number[] } {
  const events: EventSpec[] = [
    { at: '10s', kind: 'taint', target: { nodes: ['b'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } } as EventSpec,
    ...c.events,
  ];
  const sim = createSimulation(scenarioOf({ objects: [node('a'), node('b'), pod('default', 'other', 'a')], version: `1.${minor}`, binder: 'none', events }));
  sim.runUntil(T0_MICROS + parseDuration('5m')!);
  // the world decisions of the case's events, in order (the taint is the first world event after start)
  const world = sim.trace.filter((d) => d.controller === 'world' && d.action === 'ObjectApplied' && d.object === 'Pod/default/p');
  return { trace: sim.trace, worldSeqs: world.map((d) => d.seq) };
}

for (const minor of [12, 31, 35]) {
  for (const c of cases) {
    test(`1.${minor}: ${c.name}`, () => {
      const { trace, worldSeqs } = run(minor, c);
      const mine = trace.filter((d) => d.controller === 'taint-eviction' && d.object === 'Pod/default/p');
      const want = minor === 12 && c.want112 ? c.want112 : c.want;
      assert.deepEqual(
        mine.map((d) => [d.action, d.time]),
        want.map(([a, t]) => [a, at(t).replace('Z', '.000Z')]),
      );
      const first = mine[0];
      const rule = first.because.map((b) => b.rule).join('\n');
      assert.match(rule, c.trigger!);
      // the world event (apply or patch) that made the update is a cause: explain leads back to it
      const world = worldSeqs[c.events.filter((e) => e.kind === 'apply' || e.kind === 'patch').indexOf(c.events[c.cites!])];
      assert.ok(
        world !== undefined && first.causes.includes(world),
        `cites the ${c.events[c.cites!].kind} (#${world}); causes ${JSON.stringify(first.causes)}`,
      );
    });
  }
}
