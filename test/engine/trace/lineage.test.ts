/**
 * A pod's lineage from the trace (engine/trace/lineage.ts): the PodsCreated
 * that names it, and the evictions that creation answered.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../../src/engine/trace/decision';
import { podLineage } from '../../../src/engine/trace/lineage';

const d = (seq: number, action: string, object: string, over: Partial<Decision> = {}): Decision =>
  ({
    seq,
    time: `2026-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`,
    pass: 0,
    controller: 'replicaset',
    action,
    object,
    summary: `${action} ${object}`,
    because: [],
    causes: [],
    machine: null,
    source: 'src',
    ...over,
  }) as Decision;

const trace: Decision[] = [
  d(1, 'PodEvicted', 'Pod/default/web-old'),
  d(2, 'PodsCreated', 'ReplicaSet/default/web', { causes: [1], details: { pods: ['web-new'] } }),
  d(3, 'PodsCreated', 'ReplicaSet/other/web', { details: { pods: ['web-elsewhere'] } }),
  d(4, 'PodBound', 'Pod/default/web-new'),
];

test('a pod’s lineage', () => {
  const cases: { name: string; ref: string; owner?: string; want: { replicaSet: string; created?: number; answers: number[] } | undefined }[] = [
    {
      name: 'a replacement names its creation and the eviction it answers',
      ref: 'Pod/default/web-new',
      want: { replicaSet: 'ReplicaSet/default/web', created: 2, answers: [1] },
    },
    { name: 'a creation in another namespace is not this pod’s', ref: 'Pod/default/web-elsewhere', want: undefined },
    {
      name: 'a pod from the snapshot names its owner and no creation',
      ref: 'Pod/default/web-old',
      owner: 'ReplicaSet/default/web',
      want: { replicaSet: 'ReplicaSet/default/web', answers: [] },
    },
    { name: 'a pod without owner or creation has none', ref: 'Pod/default/web-old', want: undefined },
    { name: 'a node has none', ref: 'Node/web-new', want: undefined },
  ];
  for (const c of cases) {
    const l = podLineage(trace, c.ref, c.owner);
    const got = l && { replicaSet: l.replicaSet, ...(l.created ? { created: l.created.seq } : {}), answers: l.answers.map((a) => a.seq) };
    assert.deepEqual(got, c.want, c.name);
  }
});
