import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toLabelSelector, toLeaseRecord, toNodeRecord, toPodRecord, toReplicaSetRecord, toTaint, toToleration } from '../../../src/engine/model/convert';
import { parseKubeTime, type FieldPath } from '../../../src/engine/model/convertFields';
import { parseTimestamp, ZERO_TIME } from '../../../src/engine/model/time';
import { taint } from '../../../src/engine/model/records';

type Reported = { path: string; code: string; severity: string };
function collect() {
  const got: Reported[] = [];
  const report = (path: FieldPath, code: string, severity: string) => got.push({ path: path.join('.'), code, severity });
  return { got, report };
}

test('timestamps: the fast path agrees with model/time.ts for every form', () => {
  const cases = [
    '2026-01-01T00:00:00Z',
    '2024-02-29T23:59:59Z',
    '1970-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '2024-04-05T04:19:33.283190Z',
    '2026-01-01T01:00:00+01:00',
    '2023-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    'yesterday',
    '2026-01-01',
  ];
  for (const s of cases) assert.equal(parseKubeTime(s), parseTimestamp(s), s);
});

test('a node: conditions with times, taints, unschedulable; missing and null times are the zero time', () => {
  const raw = {
    metadata: { name: 'n', uid: 'u', labels: { a: 'b' }, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { unschedulable: true, taints: [{ key: 'k', value: 'v', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:05Z' }] },
    status: {
      conditions: [
        { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'm', lastHeartbeatTime: null, lastTransitionTime: '2026-01-01T00:00:01Z' },
        { type: 'DiskPressure', status: 'False' },
      ],
    },
  };
  const n = toNodeRecord(raw)!;
  assert.equal(n.raw, raw);
  assert.equal(n.meta.labels, raw.metadata.labels, 'labels are kept by reference');
  assert.equal(n.unschedulable, true);
  assert.deepEqual(n.taints, [{ key: 'k', value: 'v', effect: 'NoExecute', timeAdded: parseTimestamp('2026-01-01T00:00:05Z') }]);
  assert.deepEqual(n.conditions[0], {
    type: 'Ready',
    status: 'False',
    reason: 'KubeletNotReady',
    message: 'm',
    lastHeartbeatTime: ZERO_TIME,
    lastTransitionTime: parseTimestamp('2026-01-01T00:00:01Z'),
  });
  assert.equal(n.conditions[1].lastHeartbeatTime, ZERO_TIME);
});

test('a pod: namespace defaults to default, restart counts are summed, phase defaults to Pending, a missing uid gets a stand-in', () => {
  const p = toPodRecord({ metadata: { name: 'p' }, spec: { nodeName: 'n' }, status: { containerStatuses: [{ restartCount: 2 }, { restartCount: 3 }] } })!;
  assert.equal(p.meta.namespace, 'default');
  assert.equal(p.meta.uid, 'generated:Pod/default/p');
  assert.equal(p.restartCount, 5);
  assert.equal(p.phase, 'Pending');
  assert.equal(p.nodeName, 'n');
  assert.equal(toPodRecord({ metadata: { name: 'q' }, spec: { nodeName: '' } })!.nodeName, undefined, 'an empty nodeName is unbound');
});

test('wrong types are reported with the path of the field and left out', () => {
  const cases: { name: string; raw: Record<string, unknown>; want: Reported[] }[] = [
    {
      name: 'condition status',
      raw: { metadata: { name: 'n' }, status: { conditions: [{ type: 'Ready', status: 'yes' }] } },
      want: [{ path: 'status.conditions.0.status', code: 'bad-condition-status', severity: 'error' }],
    },
    {
      name: 'taint effect',
      raw: { metadata: { name: 'n' }, spec: { taints: [{ key: 'k', effect: 'Never' }] } },
      want: [{ path: 'spec.taints.0.effect', code: 'bad-taint-effect', severity: 'error' }],
    },
    {
      name: 'taint key',
      raw: { metadata: { name: 'n' }, spec: { taints: [{ effect: 'NoSchedule' }] } },
      want: [{ path: 'spec.taints.0', code: 'missing-field', severity: 'error' }],
    },
    {
      name: 'timestamp',
      raw: { metadata: { name: 'n', creationTimestamp: 12 } },
      want: [{ path: 'metadata.creationTimestamp', code: 'bad-timestamp', severity: 'error' }],
    },
    {
      name: 'label value',
      raw: { metadata: { name: 'n', labels: { a: 1, b: 'ok' } } },
      want: [{ path: 'metadata.labels.a', code: 'wrong-type', severity: 'error' }],
    },
    { name: 'name', raw: { metadata: { labels: {} } }, want: [{ path: 'metadata', code: 'missing-field', severity: 'error' }] },
    {
      name: 'taints not a list',
      raw: { metadata: { name: 'n' }, spec: { taints: 'k=v:NoSchedule' } },
      want: [{ path: 'spec.taints', code: 'wrong-type', severity: 'error' }],
    },
  ];
  for (const c of cases) {
    const { got, report } = collect();
    toNodeRecord(c.raw, report);
    assert.deepEqual(got, c.want, c.name);
  }
});

test('tolerations: every operator and effect form, and tolerationSeconds that is not a whole number is left out', () => {
  const { got, report } = collect();
  assert.deepEqual(toToleration({ operator: 'Exists' }, ['t'], report, 0), { operator: 'Exists' });
  assert.deepEqual(toToleration({ key: 'k', value: 'v', effect: 'NoExecute', tolerationSeconds: 0 }, ['t'], report, 1), {
    key: 'k',
    value: 'v',
    effect: 'NoExecute',
    tolerationSeconds: 0,
  });
  assert.deepEqual(toToleration({ key: '', operator: 'Exists', effect: '' }, ['t'], report, 2), { operator: 'Exists' }, 'empty key and effect mean any');
  assert.equal(toToleration({ key: 'k', tolerationSeconds: '300' }, ['t'], report, 3), undefined);
  assert.equal(toToleration({ key: 'k', tolerationSeconds: 1.5 }, ['t'], report, 4), undefined);
  assert.equal(toToleration({ operator: 'Maybe' }, ['t'], report, 5), undefined);
  assert.deepEqual(
    got.map((g) => `${g.path} ${g.code}`),
    ['t.3.tolerationSeconds wrong-type', 't.4.tolerationSeconds wrong-type', 't.5.operator bad-toleration-operator'],
  );
});

test('clean tolerations are shared with raw, unclean ones are copied and normalised', () => {
  const clean = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }];
  assert.equal(toPodRecord({ metadata: { name: 'p' }, spec: { tolerations: clean } })!.tolerations, clean);
  const unclean = [{ key: '', operator: 'Exists', effect: '' }];
  const p = toPodRecord({ metadata: { name: 'p' }, spec: { tolerations: unclean } })!;
  assert.notEqual(p.tolerations, unclean);
  assert.deepEqual(p.tolerations, [{ operator: 'Exists' }]);
});

test('a taint written by hand is checked as the API would', () => {
  assert.deepEqual(toTaint({ key: 'k', effect: 'PreferNoSchedule' }, []), taint('k', 'PreferNoSchedule', undefined, undefined));
  assert.equal(toTaint({ key: 'k' }, []), undefined);
  assert.equal(toTaint('k:NoSchedule', []), undefined);
});

test('a ReplicaSet: replicas unset stays undefined (the API defaults it to 1), status counts default to 0', () => {
  const r = toReplicaSetRecord({
    metadata: { name: 'r', namespace: 'ns' },
    spec: { selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] }, template: { metadata: {} } },
    status: { replicas: 2, readyReplicas: 1 },
  })!;
  assert.equal(r.replicas, undefined);
  assert.deepEqual(r.selector, { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] });
  assert.deepEqual([r.status.replicas, r.status.readyReplicas, r.status.availableReplicas, r.status.fullyLabeledReplicas], [2, 1, 0, 0]);
  const { got, report } = collect();
  toReplicaSetRecord({ metadata: { name: 'r' }, spec: { replicas: -1 } }, report);
  assert.deepEqual(
    got.map((g) => `${g.path} ${g.code} ${g.severity}`),
    ['spec.replicas wrong-type error', 'spec missing-field warning'],
  );
});

test('a label selector with a bad operator reports it and leaves the requirement out', () => {
  const { got, report } = collect();
  const sel = toLabelSelector(
    {
      matchExpressions: [
        { key: 'a', operator: 'Like' },
        { key: 'b', operator: 'Exists' },
      ],
    },
    ['sel'],
    report,
  );
  assert.deepEqual(sel, { matchExpressions: [{ key: 'b', operator: 'Exists' }] });
  assert.deepEqual(
    got.map((g) => `${g.path} ${g.code}`),
    ['sel.matchExpressions.0.operator bad-selector-operator'],
  );
});

test('a Lease keeps its MicroTime renewTime exactly', () => {
  const l = toLeaseRecord({
    metadata: { name: 'n', namespace: 'kube-node-lease' },
    spec: { holderIdentity: 'n', leaseDurationSeconds: 40, renewTime: '2024-04-05T04:19:33.283190Z' },
  })!;
  assert.equal(l.renewTime, parseTimestamp('2024-04-05T04:19:33.283190Z'));
  assert.equal(l.holderIdentity, 'n');
  assert.equal(l.leaseDurationSeconds, 40);
});

test("an enum field's typo is answered with the value it is close to, and a value close to none gets no guess", () => {
  const cases: { name: string; convert: (report: (p: FieldPath, code: string, sev: string, message: string) => void) => void; want: RegExp }[] = [
    {
      name: 'taint effect',
      convert: (r) => toTaint({ key: 'k', effect: 'NoExecut' }, ['t'], r, 0),
      want: /found the string "NoExecut" \(did you mean NoExecute\?\); the taint/,
    },
    { name: 'taint effect, lower case', convert: (r) => toTaint({ key: 'k', effect: 'noschedule' }, ['t'], r, 0), want: /\(did you mean NoSchedule\?\)/ },
    {
      name: 'taint effect far from any',
      convert: (r) => toTaint({ key: 'k', effect: 'Never' }, ['t'], r, 0),
      want: /found the string "Never"; the taint is left out$/,
    },
    {
      name: 'toleration operator',
      convert: (r) => toToleration({ operator: 'exists' }, ['t'], r, 0),
      want: /\(did you mean Exists\?\); the toleration is left out/,
    },
    {
      name: 'pod phase',
      convert: (r) => toPodRecord({ metadata: { name: 'p' }, status: { phase: 'Runing' } }, r),
      want: /\(did you mean Running\?\); taken as Unknown/,
    },
    {
      name: 'condition status',
      convert: (r) => toNodeRecord({ metadata: { name: 'n' }, status: { conditions: [{ type: 'Ready', status: 'ture' }] } }, r),
      want: /\(did you mean True\?\); taken as Unknown/,
    },
    {
      name: 'selector operator',
      convert: (r) => toLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Notin', values: ['x'] }] }, ['sel'], r),
      want: /\(did you mean NotIn\?\)$/,
    },
  ];
  for (const c of cases) {
    const messages: string[] = [];
    c.convert((_p, _code, _sev, message) => messages.push(message));
    assert.equal(messages.length, 1, `${c.name}: ${JSON.stringify(messages)}`);
    assert.match(messages[0], c.want, c.name);
  }
});
