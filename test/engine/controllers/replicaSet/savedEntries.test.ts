/**
 * A checkpoint of the ReplicaSet controller saves again only the entries marked changed since the
 * previous one and shares the others (checkpoint.ts saveEntries). Each case runs a scenario pass
 * by pass, saves the controller after every pass (as checkpoints do, more often) and compares
 * what it kept with a full copy of every live entry made then: an entry written at a place that
 * does not mark it keeps the previous checkpoint's, which differs. The simulation's own checking
 * mode is off here, so that this compares on its own.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import type { ReplicaSetController } from '../../../../src/engine/controllers/replicaSet/controller';
import type { Entry, SavedEntry } from '../../../../src/engine/controllers/replicaSet/entry';
import type { KObject } from '../../../../src/engine/model/types';
import { replicaSet, scenarioOf, type EventSpec } from '../../../helpers/scenario';
import { entryCluster } from './entryCluster';

// the waiting ReplicaSet's pods not available for a minute: its entry waits for a resync across saves
const objects = (): KObject[] => entryCluster({ replicas: 2, minReadySeconds: 60 });

const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

/** `passes`: run to each in turn, a save after each (a lower one is a step back) */
const cases: { name: string; events: EventSpec[]; passes: number[]; noneResaved?: true }[] = [
  {
    name: 'a scale up (pods created: the counter, expectations, the last transition)',
    events: [{ at: '12s', kind: 'scale', replicaSet: 'default/web', replicas: 6 } as EventSpec],
    passes: upTo(12),
  },
  {
    name: 'a scale down (pods deleted: expectations, lastManageSeq)',
    events: [{ at: '12s', kind: 'scale', replicaSet: 'default/web', replicas: 1 } as EventSpec],
    passes: upTo(12),
  },
  {
    name: 'pods deleted by the user (the removed pods kept to replace, then replaced)',
    events: [{ at: '12s', kind: 'delete', ref: 'Pod/default/web-2' } as EventSpec, { at: '12s', kind: 'delete', ref: 'Pod/default/db-1' } as EventSpec],
    passes: upTo(12),
  },
  {
    name: "a node lost: its pods evicted and replaced (the owners' entries changed, the quiet one not)",
    events: [{ at: '12s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec],
    passes: upTo(100),
  },
  {
    name: 'a ReplicaSet created and another deleted (entries come and go: every entry read again)',
    events: [
      { at: '12s', kind: 'apply', object: replicaSet('default', 'late', 2, { app: 'late' }) } as EventSpec,
      { at: '22s', kind: 'delete', ref: 'ReplicaSet/default/db' } as EventSpec,
    ],
    passes: upTo(12),
    // every save after the first reads every entry again
    noneResaved: true,
  },
  {
    name: 'a step back over a scale and on again (a restore, then saves after it)',
    events: [
      { at: '12s', kind: 'scale', replicaSet: 'default/web', replicas: 5 } as EventSpec,
      { at: '32s', kind: 'delete', ref: 'Pod/default/db-1' } as EventSpec,
    ],
    passes: [...upTo(10), 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  },
];

type Rsc = ReplicaSetController & { entries: Map<string, Entry> };

/** The entries whose saved entry is not what a full copy of the live entry would hold (by identity where the checkpoint shares). */
function divergent(rsc: Rsc, saved: readonly SavedEntry[]): string[] {
  const live = [...rsc.entries.values()];
  const out: string[] = [];
  if (saved.length !== live.length) out.push(`${saved.length} saved of ${live.length}`);
  live.forEach((e, i) => {
    const se = saved[i];
    const full = {
      key: e.key,
      uid: e.uid,
      snapshot: e.actor.snapshot(),
      counter: e.counter,
      removed: e.removed.map((r) => `${r.key}:${r.fact}`),
      lastManageSeq: e.lastManageSeq,
      lastPending: e.lastPending,
      lastTransition: e.lastTransition,
    };
    const kept = se && {
      key: se.key,
      uid: se.uid,
      snapshot: se.snapshot,
      counter: se.counter,
      removed: se.removed.map((r) => `${r.key}:${r.fact}`),
      lastManageSeq: se.lastManageSeq,
      lastPending: se.lastPending,
      lastTransition: se.lastTransition,
    };
    const differ = (Object.keys(full) as (keyof typeof full)[]).filter((k) =>
      k === 'removed' ? full.removed.join() !== kept?.removed.join() : full[k] !== kept?.[k],
    );
    if (differ.length > 0) out.push(`${e.key}: ${differ.join(', ')}`);
  });
  return out;
}

describe('the ReplicaSet entries a checkpoint saves again or shares', () => {
  for (const c of cases)
    it(c.name, () => {
      const sim = createSimulation(scenarioOf({ objects: objects(), version: '1.35', events: c.events }), { checkpointEvery: 3 });
      let shared = 0;
      let resaved = 0;
      let last: { rsc: Rsc; entries: SavedEntry[] } | undefined;
      for (const p of c.passes) {
        sim.goToPass(p);
        const rsc = sim.controllers.find((x) => x.name === 'replicaset') as Rsc;
        const entries = (rsc.save() as { entries: SavedEntry[] }).entries;
        assert.deepEqual(divergent(rsc, entries), [], `at pass ${p}`);
        // the same controller, the same entries: what it did not write since the save before is shared
        if (last?.rsc === rsc && last.entries.length === entries.length) entries.forEach((se, i) => (se === last!.entries[i] ? shared++ : resaved++));
        last = { rsc, entries };
      }
      assert.ok(shared > 0, 'some entries shared with the save before');
      assert.equal(resaved > 0, !c.noneResaved, 'some entries saved again');
    });
});
