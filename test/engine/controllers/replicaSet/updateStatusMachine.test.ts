/**
 * updateReplicaSetStatus's machine answers each question by which of its guards hold, kept by
 * index (`askUpdateReplicaSetStatus`): for every combination of fields that differ, the answer
 * (state and guard checks) is the one xstate gives for that very event, asked in an order where a
 * combination answered for another would show.
 */
import { test } from 'node:test';
import type { ReplicaSetRecord, ReplicaSetStatus } from '../../../../src/engine/model/types';
import assert from 'node:assert/strict';
import { MachineTable } from '../../../../src/engine/machines/table';
import { becauseWithGuards, guardChecks } from '../../../../src/engine/machines/guardChecks';
import {
  askUpdateReplicaSetStatus,
  statusGuardChecks,
  statusStep,
  updateReplicaSetStatusGuardRules,
  updateStatusEvent,
  updateReplicaSetStatusMachine,
  type UpdateStatusEvent,
} from '../../../../src/engine/controllers/replicaSet/updateReplicaSetStatusMachine';

const FIELDS = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas', 'generation', 'conditions'] as const;

/** the event in which the fields whose bit is set differ, each by a value of its own */
function eventOf(bits: number, salt: number): UpdateStatusEvent {
  const pair = (i: number) => ({ from: 3 + salt, to: bits & (1 << i) ? 4 + salt : 3 + salt });
  return {
    type: 'UPDATE_STATUS',
    replicas: pair(0),
    fullyLabeledReplicas: pair(1),
    readyReplicas: pair(2),
    availableReplicas: pair(3),
    terminatingReplicas: bits & (1 << 4) ? { from: undefined, to: salt } : { from: undefined, to: undefined },
    generation: { generation: 2, observedGeneration: bits & (1 << 5) ? 1 : 2 },
    conditions: { from: '[]', to: bits & (1 << 6) ? '[{"type":"ReplicaFailure","status":"True","lastTransitionTime":0}]' : '[]' },
  };
}

test("updateReplicaSetStatus's machine: every combination of differing fields gets xstate's own answer", () => {
  const n = 1 << FIELDS.length;
  // both directions and twice each, so that an answer kept under the wrong combination is met
  const order = [...Array.from({ length: n }, (_, i) => i), ...Array.from({ length: n }, (_, i) => n - 1 - i)];
  for (const [k, bits] of order.entries()) {
    const e = eventOf(bits, k);
    const name = FIELDS.filter((_, i) => bits & (1 << i)).join(', ') || 'nothing differs';
    // a table of its own for this one event: xstate's pure step on it
    const step = new MachineTable(updateReplicaSetStatusMachine, () => 'one').step('observed', e);
    const got = askUpdateReplicaSetStatus('default/web', e);
    if (!step) {
      assert.equal(got, null, name);
      continue;
    }
    assert.ok(got, name);
    assert.deepEqual({ ...got }, { id: 'replicaSetStatus/default/web', from: 'observed', to: step.text, event: 'UPDATE_STATUS' }, name);
    assert.deepEqual(becauseWithGuards([], got), guardChecks(step.guards, e, updateReplicaSetStatusGuardRules), `${name}: the checks show this event's values`);
  }
});

/** a ReplicaSet whose status and the one calculated for it differ in the fields whose bit is set */
function statusesOf(bits: number, salt: number): { rs: ReplicaSetRecord; next: ReplicaSetStatus } {
  const status: ReplicaSetStatus = {
    replicas: 3 + salt,
    fullyLabeledReplicas: 3 + salt,
    readyReplicas: 3 + salt,
    availableReplicas: 3 + salt,
    observedGeneration: bits & (1 << 5) ? 1 : 2,
    conditions: [],
  };
  const next: ReplicaSetStatus = { ...status, observedGeneration: status.observedGeneration, conditions: [] };
  for (const [i, f] of (['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'] as const).entries()) if (bits & (1 << i)) next[f] = 4 + salt;
  if (bits & (1 << 4)) next.terminatingReplicas = salt;
  if (bits & (1 << 6)) next.conditions = [{ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate', message: 'quota', lastTransitionTime: 0 }];
  const rs = { meta: { namespace: 'default', name: 'web', uid: 'u', generation: 2 }, status } as unknown as ReplicaSetRecord;
  return { rs, next };
}

test('a status write answered from the two statuses (statusStep) gets the answer and checks of the question made from them', () => {
  const n = 1 << FIELDS.length;
  const order = [...Array.from({ length: n }, (_, i) => n - 1 - i), ...Array.from({ length: n }, (_, i) => i)];
  for (const [k, bits] of order.entries()) {
    const { rs, next } = statusesOf(bits, k);
    const name = FIELDS.filter((_, i) => bits & (1 << i)).join(', ') || 'nothing differs';
    const e = updateStatusEvent(rs, next);
    const want = new MachineTable(updateReplicaSetStatusMachine, () => 'one').step('observed', e);
    const got = statusStep(rs, next);
    if (!want) {
      assert.equal(got, null, name);
      continue;
    }
    assert.ok(got, name);
    assert.equal(got.text, want.text, name);
    assert.deepEqual(statusGuardChecks(got, rs.status, next, 2), guardChecks(want.guards, e, updateReplicaSetStatusGuardRules), `${name}: the checks`);
  }
});
