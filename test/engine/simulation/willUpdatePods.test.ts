/**
 * MarkPodsNotReady tells the host which pods it is about to update (`willUpdatePods`), so that the
 * host and the ReplicaSet controller read their per-pod entries in one loop before the updates
 * (independent cache misses that overlap, at 5,000 nodes). What it tells must be the pods that
 * follow, and reading ahead must change nothing: each case runs one scenario with and without the
 * read-ahead and compares the trace, and checks what the controllers were told ahead against the
 * updates that came.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { defaultControllerFactory } from '../../../src/engine/simulation/wiring';
import type { ControllerFactory } from '../../../src/engine/simulation/controllerPlan';
import type { KObject } from '../../../src/engine/model/types';
import { node, pod, replicaSet, scenarioOf, type EventSpec } from '../../helpers/scenario';

const owner = (rs: string): KObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: rs,
  uid: `uid-rs-default-${rs}`,
  controller: true,
  blockOwnerDeletion: true,
});
const member = (rs: string, name: string, nodeName: string) => pod('default', name, nodeName, { labels: { app: rs }, owner: owner(rs) });

interface Case {
  name: string;
  version: string;
  objects: KObject[];
  events: EventSpec[];
  /** the batches told ahead, in order */
  ahead: string[][];
}

const stop = (nodes: string[]): EventSpec => ({ at: '10s', kind: 'kubelet', action: 'stop', target: { nodes } }) as EventSpec;

const cases: Case[] = [
  {
    name: "one node's pods of two ReplicaSets",
    version: '1.31',
    objects: [
      node('a'),
      node('b'),
      replicaSet('default', 'web', 2, { app: 'web' }),
      replicaSet('default', 'api', 2, { app: 'api' }),
      member('web', 'web-1', 'a'),
      member('api', 'api-1', 'a'),
      member('web', 'web-2', 'b'),
      member('api', 'api-2', 'b'),
    ],
    events: [stop(['a'])],
    ahead: [['default/api-1', 'default/web-1']],
  },
  {
    name: 'two nodes, an orphan among the pods',
    version: '1.35',
    objects: [
      node('a'),
      node('b'),
      node('c'),
      replicaSet('default', 'web', 3, { app: 'web' }),
      member('web', 'web-1', 'a'),
      member('web', 'web-2', 'b'),
      member('web', 'web-3', 'c'),
      pod('default', 'solo', 'b'),
    ],
    events: [stop(['a', 'b'])],
    ahead: [['default/web-1'], ['default/solo', 'default/web-2']],
  },
];

for (const c of cases) {
  test(`MarkPodsNotReady reads its pods ahead, changing nothing: ${c.name}`, () => {
    const ahead: string[][] = [];
    // the first update of each pod that shows it not ready (a pod never announced before is told
    // with its current record as `before`, so the write shows in the record alone)
    const updated: string[] = [];
    const run = (readAhead: boolean) => {
      const factory: ControllerFactory = (name, ctx) => {
        const ctl = defaultControllerFactory(name, ctx);
        if (name !== 'replicaset' || !ctl) return ctl;
        if (!readAhead) delete (ctl as { willUpdatePods?: unknown }).willUpdatePods;
        else {
          const will = ctl.willUpdatePods!.bind(ctl);
          ctl.willUpdatePods = (keys) => {
            ahead.push([...keys]);
            will(keys);
          };
          const on = ctl.onPodEvent!.bind(ctl);
          ctl.onPodEvent = (host, type, p, before, key) => {
            if (type === 'updated' && !updated.includes(key!) && p.conditions.some((x) => x.type === 'Ready' && x.status === 'False')) updated.push(key!);
            on(host, type, p, before, key);
          };
        }
        return ctl;
      };
      const sim = createSimulation(scenarioOf({ objects: c.objects, version: c.version, events: c.events }), { controllerFactory: factory });
      sim.runUntil(sim.startTime + 600_000_000);
      return sim.trace.map((d) => `${d.seq} ${d.time} ${d.action} ${d.object} ${d.summary}`);
    };
    const withAhead = run(true);
    const without = run(false);
    assert.deepEqual(ahead, c.ahead, 'the batches told ahead');
    assert.deepEqual(updated, c.ahead.flat(), 'the updates that came are the pods told ahead, in that order');
    assert.deepEqual(withAhead, without, 'the trace with the read-ahead is the trace without it');
  });
}
