/**
 * A step back takes over the ReplicaSet controller's entries that did not change since the
 * checkpoint, and its checks while they did not change (checkpoint.ts `takenOver`), instead of
 * making every entry again from the checkpoint. Each case steps back onto a checkpoint (nothing
 * replayed after the restore) and compares the controller restored so with one restored from the
 * same checkpoint the slow way (no controller to take over from: every entry made anew), field by
 * field, and asks that some entries were taken over and some made anew.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import { ReplicaSetController } from '../../../../src/engine/controllers/replicaSet/controller';
import type { Entry } from '../../../../src/engine/controllers/replicaSet/entry';
import type { Checkpoint } from '../../../../src/engine/simulation/checkpointStore';
import type { KObject } from '../../../../src/engine/model/types';
import { replicaSet, scenarioOf, type EventSpec } from '../../../helpers/scenario';
import { entryCluster } from './entryCluster';

// its pod not available for an hour: the entry waits for a resync (timed) and is quiet meanwhile
const objects = (): KObject[] => entryCluster({ replicas: 1, minReadySeconds: 3600 });

/** `from` and `to`: the step back (to a pass with a checkpoint: checkpointEvery 3); `anew`: some entries changed since; `written`: some of them of a ReplicaSet there at both ends (the same uid);
 * `waitingWritten`: the waiting one among them */
const cases: { name: string; events: EventSpec[]; from: number; to: number; anew: boolean; written: boolean; waitingWritten?: boolean }[] = [
  {
    name: 'a ReplicaSet scaled up and another deleted after the checkpoint',
    events: [
      { at: '31s', kind: 'scale', replicaSet: 'default/web', replicas: 5 } as EventSpec,
      { at: '33s', kind: 'delete', ref: 'ReplicaSet/default/db' } as EventSpec,
    ],
    from: 12,
    to: 6,
    anew: true,
    written: true,
  },
  {
    name: "a node lost: its pods evicted and replaced (the owners' entries changed, the quiet one not)",
    events: [{ at: '12s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec],
    from: 90,
    to: 6,
    anew: true,
    written: true,
  },
  {
    name: 'a ReplicaSet created after the checkpoint (its entry is dropped) and one deleted (made anew)',
    events: [
      { at: '31s', kind: 'apply', object: replicaSet('default', 'late', 2, { app: 'late' }) } as EventSpec,
      { at: '33s', kind: 'delete', ref: 'ReplicaSet/default/db' } as EventSpec,
    ],
    from: 12,
    to: 6,
    anew: true,
    written: false,
  },
  {
    // its entry is written into and must be put back among the timed ones
    name: 'the waiting ReplicaSet scaled up after the checkpoint',
    events: [{ at: '31s', kind: 'scale', replicaSet: 'default/slow', replicas: 2 } as EventSpec],
    from: 12,
    to: 6,
    anew: true,
    written: true,
    waitingWritten: true,
  },
  {
    name: 'a ReplicaSet scaled down before the checkpoint, then nothing',
    events: [{ at: '7s', kind: 'scale', replicaSet: 'default/web', replicas: 1 } as EventSpec],
    from: 15,
    to: 9,
    anew: false,
    written: false,
  },
];

type Rsc = ReplicaSetController & {
  entries: Map<string, Entry>;
  timed: Set<Entry>;
  byUid: Map<string, Entry>;
  byNamespace: Map<string, Set<Entry>>;
  byOwner: Map<string, unknown>;
  indexesMade: number;
};

/** what a restored controller holds, entries by identity of what they share with the checkpoint */
function memory(rsc: Rsc): unknown {
  const entry = (e: Entry) => {
    // savedAt and changed: where the controller's last save put the entry (map order), not what it holds
    const { actor, view, removed, lastTransition, lastSaved, statusId, pods, podsMade, savedAt: _at, changed: _changed, ...rest } = e;
    // podsOf's look-up, kept when the entry is put in (core.ts pointPods): compared as the index's set, not field by field (it points back at the entry)
    assert.equal(podsMade === rsc.indexesMade ? pods : undefined, rsc.byOwner.get(e.uid), `${e.key}: the pod set kept is the index's`);
    // made from the key at the entry's first status write, whichever way the entry was made
    if (statusId !== undefined) assert.equal(statusId, `replicaSetStatus/${e.key}`);
    // a view kept is the one machineView would make again: the same id, state and transition
    if (view !== undefined) assert.deepEqual([view.id, view.state, view.lastTransition], [actor.id, actor.state(), lastTransition]);
    return {
      ...rest,
      id: actor.id,
      state: ids.of(actor.snapshot()),
      removed: removed.map((r) => ids.of(r)),
      lastTransition: ids.of(lastTransition),
      lastSaved: ids.of(lastSaved),
    };
  };
  // by key: the maps' and sets' order is not read by anything decided (the entries taken over keep
  // the live maps, in the live order: checkpoint.ts takeOverEntries)
  const sorted = <T>(xs: [string, T][]) => xs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const saved = rsc.save() as { entries: { key: string }[] };
  return {
    entries: sorted([...rsc.entries].map(([k, e]) => [k, entry(e)])),
    timed: [...rsc.timed].map((e) => e.key).sort(),
    byUid: sorted([...rsc.byUid].map(([k, e]) => [k, e.key])),
    byNamespace: sorted([...rsc.byNamespace].map(([ns, set]) => [ns, [...set].map((e) => e.key).sort()])),
    checks: [...rsc.checks].map(([k, c]) => [k, ids.of(c.check)]),
    problems: rsc.problems(),
    saved: JSON.stringify({ ...saved, entries: [...saved.entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) }),
  };
}

/** objects compared by identity: each gets a number the first time it is seen */
const ids = {
  seen: new Map<unknown, number>(),
  of(x: unknown): number | undefined {
    if (x === undefined) return undefined;
    if (!this.seen.has(x)) this.seen.set(x, this.seen.size);
    return this.seen.get(x);
  },
};

describe('the ReplicaSet entries a step back takes over', () => {
  for (const c of cases)
    it(c.name, () => {
      const sim = createSimulation(scenarioOf({ objects: objects(), version: '1.35', events: c.events }), { checkpointEvery: 3 });
      sim.goToPass(c.from);
      const before = sim.controllers.find((x) => x.name === 'replicaset') as Rsc;
      const live = new Map(before.entries);
      const liveActors = new Map([...before.entries].map(([k, e]) => [k, e.actor]));
      sim.goToPass(c.to);
      const list = (sim as unknown as { store: { list: Checkpoint[] } }).store.list;
      const cp = list[list.length - 1];
      assert.equal(cp.pass, c.to, 'the step back lands on a checkpoint');
      const fast = sim.controllers.find((x) => x.name === 'replicaset') as Rsc;
      const slow = new ReplicaSetController() as Rsc;
      slow.restore(cp.controllers.find((x) => x.name === 'replicaset')!.saved, (sim as SimulationImpl).host);
      assert.deepEqual(memory(fast), memory(slow));
      const kept = [...fast.entries.values()].filter((e) => live.get(e.key) === e && liveActors.get(e.key) === e.actor);
      // the live entry of a ReplicaSet changed since, with the checkpoint's state written into it (checkpoint.ts writtenInto)
      const written = [...fast.entries.values()].filter((e) => live.get(e.key) === e && liveActors.get(e.key) !== e.actor);
      assert.ok(kept.length > 0, 'some entries taken over');
      assert.equal(kept.length < fast.entries.size, c.anew, c.anew ? 'some made anew or written into' : 'every entry taken over');
      assert.equal(written.length > 0, c.written, c.written ? 'some written into' : 'none written into');
      const waiting = c.waitingWritten ? written : kept;
      assert.deepEqual(
        [...kept.filter((e) => e.key === 'default/quiet'), ...waiting.filter((e) => e.key === 'default/slow')].map((e) => [e.key, e.timed]),
        [
          ['default/quiet', false],
          ['default/slow', true],
        ],
        c.waitingWritten
          ? 'the quiet ReplicaSet is taken over, the waiting one written into and waiting'
          : 'the quiet ReplicaSets are taken over, one of them waiting',
      );
    });
});
