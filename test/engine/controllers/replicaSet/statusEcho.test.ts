/**
 * The echo of the controller's own status write (statusEcho.ts): owed instead of added, and dropped
 * at the next round when nothing else added the key; otherwise the key is where the echo would have
 * left it. Each case wakes the controller once at the start (every key's first sync, which writes
 * its status), does what the case says in the same instant, then reads the key's queue; then wakes
 * it again (the instant's next round) and reads the queue and the decisions. The world checks the
 * counts (verifyTallies), and with them every dropped echo: its sync is run and must decide nothing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { World, podObject, rsObject, T0 } from './harness';
import type { Entry } from '../../../../src/engine/controllers/replicaSet/entry';
import type { ReplicaSetMachineContext } from '../../../../src/engine/controllers/replicaSet/machine';

interface Queue {
  queue: string;
  dueAt: number | null;
  failures: number;
}

interface Case {
  name: string;
  replicas?: number;
  faults?: Record<string, number>;
  /** what happens in the instant after the first wake, before the next round */
  between?: (w: World) => void;
  /** the key's queue after the first wake and `between` (dueAt from T0), and whether the controller is due at T0 */
  afterSync: Queue;
  /** instantDone called before the next round (the instant's rounds ran out) */
  instantDone?: Queue;
  /** the actions decided in the next round */
  nextRound: string[];
  /** the held pod events stay held through the next round */
  held?: true;
  /** the next round throws this (a change the informer never told: the dropped echo's sync decides) */
  throws?: RegExp;
}

const KEY = 'default/web';

const cases: Case[] = [
  {
    name: 'a status write and nothing else: the echo owed (the key idle, the controller due), dropped at the next round',
    afterSync: { queue: 'idle', dueAt: null, failures: 0 },
    nextRound: [],
  },
  {
    name: 'a pod of the ReplicaSet changes after the write: the key queued at the instant, synced at the next round as the echo would be',
    between: (w) => {
      const pod = w.host.cluster.pods.get('default/web-1')!;
      pod.conditions = pod.conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'False' } : c));
      w.host.updatePod(pod);
    },
    afterSync: { queue: 'queued', dueAt: 0, failures: 0 },
    nextRound: ['ReplicaSetStatusUpdated'],
  },
  {
    name: 'pods created by the sync: their events add the key while it syncs, the echo adds nothing (queued again at once)',
    replicas: 4,
    afterSync: { queue: 'queued', dueAt: 0, failures: 0 },
    nextRound: ['ReplicaSetStatusUpdated'],
  },
  {
    name: 'a sync that fails after writing its status: the echo taken at once, the failure counted (queued again, not backed off)',
    replicas: 4,
    faults: { 'create pods': 1 },
    afterSync: { queue: 'queued', dueAt: 0, failures: 1 },
    nextRound: ['PodsCreated', 'ReplicaSetStatusUpdated'],
  },
  {
    name: "the instant's rounds run out with the echo owed: the key queued at its instant, as the echo left it",
    afterSync: { queue: 'idle', dueAt: null, failures: 0 },
    instantDone: { queue: 'queued', dueAt: 0, failures: 0 },
    nextRound: [],
  },
  {
    name: 'a pod event held back (the counts may lag): the echo added at the next round, and its sync reads the change',
    between: (w) => {
      w.host.defer = true;
      const pod = w.host.cluster.pods.get('default/web-1')!;
      pod.conditions = pod.conditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'False' } : c));
      w.host.updatePod(pod);
    },
    afterSync: { queue: 'idle', dueAt: null, failures: 0 },
    held: true,
    nextRound: ['ReplicaSetStatusUpdated'],
  },
  {
    name: 'the ReplicaSet scaled in place and never announced: the dropped echo would decide, and the check says so',
    between: (w) => {
      w.replicaSet(KEY).replicas = 3;
    },
    afterSync: { queue: 'idle', dueAt: null, failures: 0 },
    nextRound: [],
    throws: /the sync of its status write's echo, dropped, .*changed/,
  },
];

function world(c: Case): World {
  return new World({
    minor: 31,
    faults: c.faults,
    replicaSets: [rsObject('web', { replicas: c.replicas ?? 2 })],
    pods: [podObject('web-1', 'web', { node: 'a' }), podObject('web-2', 'web', { node: 'a' })],
  });
}

function queueOf(w: World): Queue & { due: boolean } {
  const entry = (w.rs as unknown as { entries: Map<string, Entry> }).entries.get(KEY)!;
  const snap = entry.actor.snapshot();
  const c = snap.context as ReplicaSetMachineContext;
  return {
    queue: (snap.value as { queue: string }).queue,
    dueAt: c.dueAt === null ? null : c.dueAt - T0,
    failures: c.failures,
    due: w.rs.nextWake() === T0,
  };
}

describe('the echo of the controller’s own status write', () => {
  for (const c of cases) {
    it(c.name, () => {
      const w = world(c);
      w.rs.wake(w.host);
      assert.deepEqual(w.host.statusWrites, [KEY], 'the first sync writes the status');
      c.between?.(w);
      assert.deepEqual(queueOf(w), { ...c.afterSync, due: true }, 'after the first sync');
      if (c.instantDone) {
        w.rs.instantDone();
        assert.deepEqual(queueOf(w), { ...c.instantDone, due: true }, 'after instantDone');
      }
      const before = w.host.decisions.length;
      if (c.throws) {
        assert.throws(() => w.rs.wake(w.host), c.throws);
        return;
      }
      if (!c.held) {
        w.host.defer = false;
        w.host.flush();
      }
      w.rs.wake(w.host);
      assert.deepEqual(
        w.host.decisions.slice(before).map((d) => d.action),
        c.nextRound,
        'the next round',
      );
    });
  }
});
