/**
 * reconcileNodeLabels (1.14+): the OS/arch labels of one spelling kept in
 * step with the other on every node add and update, the beta labels the
 * source of truth in 1.14–1.18 and the stable ones from 1.19; 1.12 and 1.13
 * leave labels alone. A failed patch waits for the node's next update.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, drive, iso, at } from './helpers';
import { labelsInStep, labelsToReconcile, type LabelSourceOfTruth } from '../../../../src/engine/controllers/nodeLifecycle/labels';

const OS = 'kubernetes.io/os',
  ARCH = 'kubernetes.io/arch',
  BETA_OS = 'beta.kubernetes.io/os',
  BETA_ARCH = 'beta.kubernetes.io/arch';

test('labelsToReconcile writes the secondary spelling from the primary one, and only where they differ', () => {
  const cases: [string, LabelSourceOfTruth, Record<string, string>, Record<string, string>][] = [
    ['no reconciling before 1.14', 'none', { [OS]: 'linux' }, {}],
    ['stable truth: a missing beta label is added', 'stable', { [OS]: 'linux', [ARCH]: 'amd64' }, { [BETA_OS]: 'linux', [BETA_ARCH]: 'amd64' }],
    ['stable truth: a differing beta label is overwritten', 'stable', { [OS]: 'linux', [BETA_OS]: 'windows' }, { [BETA_OS]: 'linux' }],
    ['stable truth: labels in step are left alone', 'stable', { [OS]: 'linux', [BETA_OS]: 'linux' }, {}],
    ['stable truth: no stable label, nothing to follow', 'stable', { [BETA_OS]: 'linux' }, {}],
    ['beta truth: a missing stable label is added', 'beta', { [BETA_OS]: 'linux' }, { [OS]: 'linux' }],
    [
      'beta truth: a differing stable label is overwritten',
      'beta',
      { [OS]: 'linux', [BETA_OS]: 'windows', [BETA_ARCH]: 'arm64', [ARCH]: 'arm64' },
      { [OS]: 'windows' },
    ],
    ['beta truth: no beta label, nothing to follow', 'beta', { [OS]: 'linux' }, {}],
    ['an empty value is a value', 'stable', { [OS]: '' }, { [BETA_OS]: '' }],
  ];
  for (const [name, truth, labels, want] of cases) {
    const r = labelsToReconcile(labels, truth);
    assert.deepEqual(r.updates, want, name);
    assert.equal(r.checks.length, Object.keys(want).length, name);
    assert.equal(labelsInStep(labels, truth), Object.keys(want).length === 0, `${name}: labelsInStep agrees`);
  }
});

test('the controller reconciles the labels of each node at start, as its version does', () => {
  const cases: { name: string; minor: number; labels: Record<string, string>; want?: Record<string, string> }[] = [
    { name: '1.12 has no label reconciling', minor: 12, labels: { [OS]: 'linux', [BETA_OS]: 'windows' }, want: undefined },
    { name: '1.13 has no label reconciling', minor: 13, labels: { [OS]: 'linux' }, want: undefined },
    { name: '1.14 follows the beta label', minor: 14, labels: { [OS]: 'linux', [BETA_OS]: 'windows' }, want: { [OS]: 'windows' } },
    {
      name: '1.18 adds the stable label from the beta one',
      minor: 18,
      labels: { [BETA_OS]: 'linux', [BETA_ARCH]: 'arm64' },
      want: { [OS]: 'linux', [ARCH]: 'arm64' },
    },
    { name: '1.18 leaves a node without beta labels alone', minor: 18, labels: { [OS]: 'linux' }, want: undefined },
    { name: '1.19 follows the stable label', minor: 19, labels: { [OS]: 'linux', [BETA_OS]: 'windows' }, want: { [BETA_OS]: 'linux' } },
    { name: '1.31 adds the beta label a node lacks', minor: 31, labels: { [OS]: 'linux' }, want: { [BETA_OS]: 'linux' } },
    {
      name: '1.35 adds the beta labels a node lacks',
      minor: 35,
      labels: { [OS]: 'linux', [ARCH]: 'amd64' },
      want: { [BETA_OS]: 'linux', [BETA_ARCH]: 'amd64' },
    },
    { name: '1.35 leaves labels in step alone', minor: 35, labels: { [OS]: 'linux', [BETA_OS]: 'linux' }, want: undefined },
  ];
  for (const c of cases) {
    const r = rig({ minor: c.minor, nodes: [node('a', { labels: c.labels })] });
    drive(r, 30, { alive: () => ['a'] });
    const d = r.decisions('NodeLabelsReconciled', 'Node/a');
    const labels = r.host.cluster.nodes.get('a')!.meta.labels;
    if (!c.want) {
      assert.deepEqual(d, [], c.name);
      assert.deepEqual(labels, c.labels, c.name);
      assert.ok(!r.host.calls.includes('setNodeLabels a'), c.name);
      continue;
    }
    assert.equal(d.length, 1, `${c.name}: once, not again at every heartbeat`);
    assert.equal(d[0].time, iso(0), c.name);
    assert.deepEqual(d[0].details, { labels: c.want }, c.name);
    assert.equal(d[0].source, `nodelifecycle: reconcileNodeLabels (pkg/controller/nodelifecycle/node_lifecycle_controller.go, v1.${c.minor})`, c.name);
    assert.deepEqual(labels, { ...c.labels, ...c.want }, c.name);
  }
});

test("a failed label patch is not requeued: the node's next update tries again", () => {
  for (const minor of [19, 35]) {
    const r = rig({ minor, nodes: [node('a', { labels: { [OS]: 'linux' } })], faults: { 'patch nodes': 1 } });
    drive(r, 30, { alive: () => ['a'] });
    assert.deepEqual(r.times('ApiCallFailed', 'Node/a'), [iso(0)], `1.${minor}`);
    // drive posts a's status every 10 s: that update queues the node again
    assert.deepEqual(r.times('NodeLabelsReconciled', 'Node/a'), [iso(10)], `1.${minor}`);
  }
});

test('a label changed by someone else mid-run is put back in step at that update', () => {
  const r = rig({ minor: 31, nodes: [node('a', { labels: { [OS]: 'linux', [BETA_OS]: 'linux' } })] });
  drive(r, 20, { alive: () => ['a'] });
  r.runUntil(at(23) - 1);
  r.host.now = at(23);
  const n = r.host.cluster.nodes.get('a')!;
  n.meta = { ...n.meta, labels: { ...n.meta.labels, [OS]: 'windows' } };
  r.c.onNodeEvent!(r.host, 'updated', n);
  r.runUntil(at(23));
  const d = r.decisions('NodeLabelsReconciled', 'Node/a');
  assert.deepEqual(
    d.map((x) => x.time),
    [iso(23)],
  );
  assert.equal(n.meta.labels[BETA_OS], 'windows');
});
