/**
 * A sync whose counts come from the running counts asks `countsUnchanged` before it makes the
 * status: where it answers true, the status calculateStatus makes from those counts must be one
 * updateReplicaSetStatus does not write (statusNeedsUpdate false). Each case changes one thing the
 * status depends on, from a ReplicaSet whose status holds exactly the counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplicaSetRecord, ReplicaSetStatus } from '../../../../src/engine/model/types';
import { countsUnchanged, StatusCounter, statusFromCounts, statusNeedsUpdate } from '../../../../src/engine/controllers/replicaSet/status';

const failure = { type: 'ReplicaFailure', status: 'True' as const, reason: 'FailedCreate', message: 'quota', lastTransitionTime: 0 };

const cases: {
  name: string;
  status?: Partial<ReplicaSetStatus>;
  generation?: number;
  claimed?: number;
  counts?: Partial<Record<'fullyLabeled' | 'ready' | 'available', number>>;
  terminating?: number | undefined;
  unchanged: boolean;
}[] = [
  { name: 'the same counts, the generation observed, no conditions: nothing to write', unchanged: true },
  { name: 'one pod fewer claimed', claimed: 2, unchanged: false },
  { name: 'one pod fewer fully labelled', counts: { fullyLabeled: 2 }, unchanged: false },
  { name: 'one pod fewer ready', counts: { ready: 2 }, unchanged: false },
  { name: 'one pod fewer available', counts: { available: 2 }, unchanged: false },
  { name: 'terminatingReplicas counted for the first time (the gate on, the status without it)', terminating: 0, unchanged: false },
  { name: 'terminatingReplicas the same', status: { terminatingReplicas: 1 }, terminating: 1, unchanged: true },
  { name: 'terminatingReplicas no longer counted (the gate off)', status: { terminatingReplicas: 0 }, terminating: undefined, unchanged: false },
  { name: 'a new generation not observed yet', generation: 3, unchanged: false },
  { name: 'a ReplicaFailure condition on the ReplicaSet (cleared without an error)', status: { conditions: [failure] }, unchanged: false },
];

test('countsUnchanged answers true only where the status calculated from the counts is not written', () => {
  for (const c of cases) {
    const status: ReplicaSetStatus = {
      replicas: 3,
      fullyLabeledReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      observedGeneration: 2,
      conditions: [],
      ...c.status,
    };
    const rs = {
      meta: { namespace: 'default', name: 'web', uid: 'u', generation: c.generation ?? 2 },
      status,
      minReadySeconds: 0,
      template: {},
      replicas: 3,
    } as unknown as ReplicaSetRecord;
    const counter = new StatusCounter(rs, 0);
    counter.fullyLabeled = c.counts?.fullyLabeled ?? 3;
    counter.ready = c.counts?.ready ?? 3;
    counter.available = c.counts?.available ?? 3;
    const claimed = c.claimed ?? 3;
    const terminating = 'terminating' in c ? c.terminating : status.terminatingReplicas;
    const writes = statusNeedsUpdate(rs, statusFromCounts(rs, claimed, undefined, 0, terminating, counter));
    assert.equal(writes, !c.unchanged, `${c.name}: statusNeedsUpdate`);
    assert.equal(countsUnchanged(rs, claimed, terminating, counter), c.unchanged, c.name);
  }
});
