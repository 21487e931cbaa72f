import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { getMatchingTolerations, minTolerationTime, taintsWithEffect, tolerates, toleratesTaint, tolerationText } from '../../../src/engine/model/tolerations';
import { toPodRecord } from '../../../src/engine/model/convert';
import type { Taint, Toleration } from '../../../src/engine/model/types';
import { seconds } from '../../../src/engine/model/time';
import { realFixture } from '../../helpers/realFixtures';

const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const dedicated: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

test('a toleration tolerates a taint exactly as v1.Toleration.ToleratesTaint decides', () => {
  const cases: { name: string; toleration: Toleration; taint: Taint; want: boolean }[] = [
    { name: 'Exists with no key tolerates every taint', toleration: { operator: 'Exists' }, taint: unreachable, want: true },
    {
      name: 'Exists with no key and no effect tolerates a keyed NoSchedule taint with a value',
      toleration: { operator: 'Exists' },
      taint: dedicated,
      want: true,
    },
    {
      name: 'Exists with no key but another effect does not tolerate',
      toleration: { operator: 'Exists', effect: 'NoSchedule' },
      taint: unreachable,
      want: false,
    },
    {
      name: 'Exists with the same key and effect tolerates',
      toleration: { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      taint: unreachable,
      want: true,
    },
    {
      name: 'Exists with the same key and no effect tolerates every effect',
      toleration: { key: 'dedicated', operator: 'Exists' },
      taint: dedicated,
      want: true,
    },
    {
      name: 'Exists with another key does not tolerate',
      toleration: { key: 'node.kubernetes.io/not-ready', operator: 'Exists' },
      taint: unreachable,
      want: false,
    },
    { name: 'Equal with the same key and value tolerates', toleration: { key: 'dedicated', operator: 'Equal', value: 'gpu' }, taint: dedicated, want: true },
    { name: 'Equal with another value does not tolerate', toleration: { key: 'dedicated', operator: 'Equal', value: 'cpu' }, taint: dedicated, want: false },
    { name: 'no operator defaults to Equal', toleration: { key: 'dedicated', value: 'gpu' }, taint: dedicated, want: true },
    { name: 'no operator and no value only tolerates a taint without a value', toleration: { key: 'dedicated' }, taint: dedicated, want: false },
    {
      name: 'Equal with no value tolerates a taint without a value',
      toleration: { key: 'node.kubernetes.io/unreachable', operator: 'Equal' },
      taint: unreachable,
      want: true,
    },
    {
      name: 'Equal with an empty key matches any key when the values are equal',
      toleration: { operator: 'Equal', value: 'gpu' },
      taint: dedicated,
      want: true,
    },
    {
      name: 'a different effect does not tolerate even with the same key',
      toleration: { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' },
      taint: dedicated,
      want: false,
    },
    { name: 'an unknown operator tolerates nothing', toleration: { key: 'dedicated', operator: 'Gt' as never, value: 'gpu' }, taint: dedicated, want: false },
  ];
  for (const c of cases) assert.equal(tolerates(c.toleration, c.taint), c.want, c.name);
});

test('the real fixture pod with `operator: Exists` and no key tolerates every taint forever', () => {
  const raw = parse(readFileSync(realFixture('mustgather-ocp-kube-system-pod-csi-nfs-node-2r5tx.yaml'), 'utf8'));
  const pod = toPodRecord(raw)!;
  assert.deepEqual(pod.tolerations, [{ operator: 'Exists' }]);
  const taints: Taint[] = [
    unreachable,
    { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
    { key: 'example.com/maintenance', value: 'x', effect: 'NoExecute' },
  ];
  for (const t of taints) assert.ok(toleratesTaint(pod.tolerations, t), t.key);
  const m = getMatchingTolerations(taints, pod.tolerations);
  assert.equal(m.allTolerated, true);
  assert.deepEqual(minTolerationTime(m.used), { forever: true });
});

test("GetMatchingTolerations uses the first matching toleration of each taint, in the pod's order", () => {
  const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
  const t300: Toleration = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
  const forever: Toleration = { operator: 'Exists' };
  const cases: { name: string; taints: Taint[]; tolerations: Toleration[]; all: boolean; used: Toleration[]; untolerated?: Taint }[] = [
    { name: 'no taints are tolerated with no toleration used', taints: [], tolerations: [], all: true, used: [] },
    { name: 'taints and no tolerations are not tolerated', taints: [unreachable], tolerations: [], all: false, used: [], untolerated: unreachable },
    { name: 'the earlier limited toleration wins over a later infinite one', taints: [unreachable], tolerations: [t300, forever], all: true, used: [t300] },
    { name: 'the earlier infinite toleration wins over a later limited one', taints: [unreachable], tolerations: [forever, t300], all: true, used: [forever] },
    { name: "one toleration per taint, in the taints' order", taints: [notReady, unreachable], tolerations: [t300, forever], all: true, used: [forever, t300] },
    {
      name: 'one untolerated taint makes the whole set untolerated',
      taints: [unreachable, notReady],
      tolerations: [t300],
      all: false,
      used: [],
      untolerated: notReady,
    },
  ];
  for (const c of cases) {
    const m = getMatchingTolerations(c.taints, c.tolerations);
    assert.equal(m.allTolerated, c.all, c.name);
    assert.deepEqual(m.used, c.used, c.name);
    assert.deepEqual(m.untolerated, c.untolerated, c.name);
  }
});

test('the minimal toleration time is as getMinTolerationTime computes it', () => {
  const cases: { name: string; tolerations: Toleration[]; want: ReturnType<typeof minTolerationTime> }[] = [
    { name: 'no tolerations give 0', tolerations: [], want: { forever: false, duration: 0 } },
    { name: 'a toleration without seconds is forever', tolerations: [{}], want: { forever: true } },
    { name: 'the smaller of 1s and 2s', tolerations: [{ tolerationSeconds: 1 }, { tolerationSeconds: 2 }], want: { forever: false, duration: seconds(1) } },
    { name: '1s and forever give 1s', tolerations: [{ tolerationSeconds: 1 }, {}], want: { forever: false, duration: seconds(1) } },
    { name: 'forever and 1s give 1s', tolerations: [{}, { tolerationSeconds: 1 }], want: { forever: false, duration: seconds(1) } },
    { name: 'zero seconds give 0 at once', tolerations: [{ tolerationSeconds: 60 }, { tolerationSeconds: 0 }], want: { forever: false, duration: 0 } },
    { name: 'negative seconds count as 0', tolerations: [{ tolerationSeconds: -5 }, { tolerationSeconds: 60 }], want: { forever: false, duration: 0 } },
  ];
  for (const c of cases) assert.deepEqual(minTolerationTime(c.tolerations), c.want, c.name);
});

test("only the NoExecute taints are kept, in the node's order", () => {
  const taints: Taint[] = [
    { key: 'one', value: 'one', effect: 'NoExecute' },
    { key: 'two', value: 'two', effect: 'NoSchedule' },
    { key: 'three', effect: 'NoExecute' },
  ];
  assert.deepEqual(
    taintsWithEffect(taints, 'NoExecute').map((t) => t.key),
    ['one', 'three'],
  );
});

test('tolerationText is the same text on every call (its memo by object) as built from the fields', () => {
  const cases: [Toleration, string][] = [
    [
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      'node.kubernetes.io/unreachable Exists NoExecute for 300s',
    ],
    [{ operator: 'Exists' }, '<all keys> Exists <all effects> forever'],
    [{ key: 'a', value: 'b', effect: 'NoSchedule' }, 'a Equal "b" NoSchedule forever'],
    [{ key: 'a', operator: 'Equal', effect: 'NoExecute', tolerationSeconds: 0 }, 'a Equal "" NoExecute for 0s'],
  ];
  for (let round = 0; round < 2; round++) {
    for (const [t, want] of cases) {
      assert.equal(tolerationText(t), want);
      assert.equal(tolerationText({ ...t }), want, 'an equal object of its own');
    }
  }
});
