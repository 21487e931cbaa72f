/**
 * A send the ReplicaSet machine refuses throws whenever the checking mode is on (strictMachines:
 * the simulation's checkInvariants, the fuzzer, the rigs), for every way the controller sends
 * (send, which keeps the transition, and update, which does not), but not for the events sent to
 * ask it (SATISFIED_EXPECTATIONS, DELETE_EXPECTATIONS: a refusal is the guard's answer); without it the refusal is
 * taken as nothing done.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReplicaSetController } from '../../../../src/engine/controllers/replicaSet';
import type { ReplicaSetMachineEvent } from '../../../../src/engine/controllers/replicaSet/machine';
import { rsObject, World } from './harness';

const CASES: { name: string; event: ReplicaSetMachineEvent; via: 'send' | 'update'; strictThrows: boolean }[] = [
  // queued at start, never dequeued: no sync is under way to end
  { name: 'SYNCED before the key was dequeued', event: { type: 'SYNCED' }, via: 'update', strictThrows: true },
  { name: 'SYNC_FAILED before the key was dequeued', event: { type: 'SYNC_FAILED', now: 0 }, via: 'send', strictThrows: true },
  // asked: the guard answers
  { name: 'SATISFIED_EXPECTATIONS with no expectations', event: { type: 'SATISFIED_EXPECTATIONS', now: 0 }, via: 'send', strictThrows: false },
  { name: 'DELETE_EXPECTATIONS with no record', event: { type: 'DELETE_EXPECTATIONS' }, via: 'update', strictThrows: false },
];

for (const strict of [true, false])
  for (const c of CASES)
    test(`${strict ? 'strict' : 'not strict'}: ${c.name} (${c.via}) ${strict && c.strictThrows ? 'throws' : 'is taken as nothing done'}`, () => {
      const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 0 })] });
      w.runUntil(w.host.now);
      const rs = createReplicaSetController({ strictMachines: strict });
      rs.start(w.host, 'reconstructed');
      const entry = rs.entries.get('default/web')!;
      assert.ok(entry, 'the ReplicaSet has an entry');
      const before = entry.actor.state();
      const send = () => (c.via === 'send' ? rs.send(entry, c.event) : rs.update(entry, c.event));
      if (strict && c.strictThrows) assert.throws(send, new RegExp(`replicaset default/web: the machine refused ${c.event.type} in `));
      else {
        send();
        assert.equal(entry.actor.state(), before);
      }
    });
