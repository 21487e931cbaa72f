import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  admitDefaultTolerationSeconds,
  applyDefaultTolerationSeconds,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_UNREACHABLE,
} from '../../../src/engine/model/defaultTolerations';
import type { PodRecord, Toleration } from '../../../src/engine/model/types';

const notReady300: Toleration = { key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable300: Toleration = { key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

test('DefaultTolerationSeconds adds what the admission plugin adds', () => {
  const cases: { name: string; tolerations: Toleration[]; added: Toleration[] }[] = [
    { name: 'a pod without tolerations gets both, not-ready first', tolerations: [], added: [notReady300, unreachable300] },
    {
      name: 'a pod tolerating not-ready for 60s only gets unreachable',
      tolerations: [{ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
      added: [unreachable300],
    },
    {
      name: 'a pod tolerating unreachable forever only gets not-ready',
      tolerations: [{ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' }],
      added: [notReady300],
    },
    { name: 'a toleration with no key and no effect counts for both', tolerations: [{ operator: 'Exists' }], added: [] },
    { name: 'a toleration with no key and effect NoExecute counts for both', tolerations: [{ operator: 'Exists', effect: 'NoExecute' }], added: [] },
    {
      name: 'a toleration with no key but effect NoSchedule counts for neither',
      tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
      added: [notReady300, unreachable300],
    },
    { name: 'the right key with no effect counts', tolerations: [{ key: TAINT_NODE_NOT_READY, operator: 'Exists' }], added: [unreachable300] },
    {
      name: 'operator and value are not looked at: Equal with a value still counts',
      tolerations: [{ key: TAINT_NODE_UNREACHABLE, operator: 'Equal', value: 'x', effect: 'NoExecute' }],
      added: [notReady300],
    },
    {
      name: 'another key counts for neither',
      tolerations: [{ key: 'example.com/maintenance', operator: 'Exists', effect: 'NoExecute' }],
      added: [notReady300, unreachable300],
    },
  ];
  for (const c of cases) {
    const r = admitDefaultTolerationSeconds(c.tolerations);
    assert.deepEqual(r.added, c.added, c.name);
    assert.deepEqual(r.tolerations, [...c.tolerations, ...c.added], c.name);
  }
});

test("the plugin's seconds come from the API server settings", () => {
  const r = admitDefaultTolerationSeconds([], { notReadySeconds: 30, unreachableSeconds: 45 });
  assert.deepEqual(
    r.added.map((t) => t.tolerationSeconds),
    [30, 45],
  );
});

test('applying the plugin to a pod updates its record and the exported object, not the input', () => {
  const raw = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [], tolerations: [{ key: 'a', operator: 'Exists' }] },
  };
  const pod: PodRecord = {
    kind: 'Pod',
    meta: { name: 'p', namespace: 'default', uid: 'u', labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: 0 },
    tolerations: [{ key: 'a', operator: 'Exists' }],
    phase: 'Pending',
    conditions: [],
    restartCount: 0,
    raw,
  };
  const added = applyDefaultTolerationSeconds(pod);
  assert.deepEqual(added, [notReady300, unreachable300]);
  assert.equal(pod.tolerations.length, 3);
  const spec = pod.raw.spec as { tolerations: unknown[]; containers: unknown[] };
  assert.deepEqual(spec.tolerations, [{ key: 'a', operator: 'Exists' }, notReady300, unreachable300]);
  assert.equal(raw.spec.tolerations.length, 1, 'the original object is left alone');
  assert.deepEqual(applyDefaultTolerationSeconds(pod), [], 'a second admission adds nothing');
});
