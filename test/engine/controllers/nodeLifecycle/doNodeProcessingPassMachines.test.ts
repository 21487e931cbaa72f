/**
 * The small machines of node lifecycle's writes (doNodeProcessingPassMachines.ts: the NoSchedule
 * taints and the OS/arch labels; controllerUtilsMachines.ts: MarkPodsNotReady and DeletePods' pod
 * status) decide what is written: the guards are upstream's checks, evaluated on the inputs the
 * event carries, and the fast checks that skip the machine for a node in step
 * (noScheduleTaintsUpToDate, labelsInStep) are proven equal to the machine's "no transition" over
 * every combination tried.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { askNodeLabels, askNoScheduleTaints } from '../../../../src/engine/controllers/nodeLifecycle/doNodeProcessingPassMachines';
import { noScheduleTaintDiff, noScheduleTaintsUpToDate, taintText } from '../../../../src/engine/controllers/nodeLifecycle/taints';
import { labelsInStep, labelsToReconcile, type LabelSourceOfTruth } from '../../../../src/engine/controllers/nodeLifecycle/labels';
import { becauseWithGuards } from '../../../../src/engine/machines/guardChecks';
import type { ConditionStatus, Taint } from '../../../../src/engine/model/types';
import { rig, node, pod, drive, names } from './helpers';
import { askDeletePodsPod, askMarkPodsNotReady } from '../../../../src/engine/controllers/nodeLifecycle/controllerUtilsMachines';

test('the NoSchedule machine patches when a taint is missing or no longer called for, and says which with the taints', () => {
  const cases: { name: string; add: string[]; del: string[]; to: string | null; guards: Record<string, unknown>[] }[] = [
    { name: 'in step', add: [], del: [], to: null, guards: [] },
    { name: 'a taint missing', add: ['a:NoSchedule'], del: [], to: 'patched', guards: [{ hasTaintsToAdd: true, taintsToAdd: ['a:NoSchedule'] }] },
    {
      name: 'a taint to remove',
      add: [],
      del: ['b:NoSchedule'],
      to: 'patched',
      guards: [
        { hasTaintsToAdd: false, taintsToAdd: [] },
        { hasTaintsToDel: true, taintsToDel: ['b:NoSchedule'] },
      ],
    },
  ];
  for (const c of cases) {
    const tr = askNoScheduleTaints('n1', { type: 'NO_SCHEDULE_PASS', taintsToAdd: c.add, taintsToDel: c.del });
    assert.equal(tr?.to ?? null, c.to, c.name);
    if (!tr) continue;
    assert.deepEqual(tr, { id: 'noScheduleTaints/n1', from: 'observed', to: 'patched', event: 'NO_SCHEDULE_PASS' }, c.name);
    assert.deepEqual(
      becauseWithGuards([], tr).map((g) => g.values),
      c.guards,
      `${c.name}: the guards in order, each with its answer and the list it read`,
    );
  }
});

test('the fast checks agree with the machines on every combination of conditions, taints and labels tried', () => {
  const statuses: (ConditionStatus | null)[] = [null, 'True', 'False', 'Unknown'];
  const taintSets: Taint[][] = [
    [],
    [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
    [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }],
    [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' }],
    [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
    [{ key: 'user/own', effect: 'NoSchedule' }],
  ];
  let tried = 0;
  for (const minor of [12, 31]) {
    for (const ready of statuses) {
      for (const memory of ['True', 'False'] as const) {
        for (const taints of taintSets) {
          for (const unschedulable of [false, true]) {
            const n = node('n1', { ready, conditions: [{ type: 'MemoryPressure', status: memory }], taints, unschedulable });
            const { toAdd, toRemove } = noScheduleTaintDiff(n, minor);
            const tr = askNoScheduleTaints('n1', { type: 'NO_SCHEDULE_PASS', taintsToAdd: toAdd.map(taintText), taintsToDel: toRemove.map(taintText) });
            assert.equal(noScheduleTaintsUpToDate(n, minor), tr === null, JSON.stringify({ minor, ready, memory, taints, unschedulable }));
            tried++;
          }
        }
      }
    }
  }
  const values = [undefined, 'linux', 'windows'];
  for (const truth of ['beta', 'stable'] as LabelSourceOfTruth[]) {
    for (const os of values)
      for (const betaOs of values)
        for (const arch of [undefined, 'amd64'])
          for (const betaArch of [undefined, 'amd64', 'arm64']) {
            const labels: Record<string, string> = {};
            if (os) labels['kubernetes.io/os'] = os;
            if (betaOs) labels['beta.kubernetes.io/os'] = betaOs;
            if (arch) labels['kubernetes.io/arch'] = arch;
            if (betaArch) labels['beta.kubernetes.io/arch'] = betaArch;
            const tr = askNodeLabels('n1', { type: 'RECONCILE_LABELS', labelsToUpdate: labelsToReconcile(labels, truth).updates });
            assert.equal(labelsInStep(labels, truth), tr === null, JSON.stringify({ truth, labels }));
            tried++;
          }
  }
  assert.equal(tried, 300);
});

test('the NoSchedule taints and the labels written in a run record their machine transitions and guards', () => {
  const all = names('n', 3);
  const r = rig({ minor: 31, nodes: [...all.map((n) => node(n, { zone: 'z1' })), node('lbl', { zone: 'z1', labels: { 'kubernetes.io/os': 'linux' } })] });
  drive(r, 10, { alive: () => [...all, 'lbl'] });
  r.post('n1', 'False');
  drive(r, 30, { alive: () => [...all, 'lbl'] });
  const added = r.decisions('TaintAdded', 'Node/n1').find((d) => d.summary.includes('not-ready:NoSchedule'));
  assert.ok(added);
  assert.deepEqual(added.machine, { id: 'noScheduleTaints/n1', from: 'observed', to: 'patched', event: 'NO_SCHEDULE_PASS' });
  assert.deepEqual(
    added.because.filter((c) => c.rule.startsWith('machine guard ')).map((c) => c.values),
    [{ hasTaintsToAdd: true, taintsToAdd: ['node.kubernetes.io/not-ready:NoSchedule'] }],
  );
  const labels = r.decisions('NodeLabelsReconciled', 'Node/lbl');
  assert.equal(labels.length, 1);
  assert.deepEqual(labels[0].machine, { id: 'nodeLabels/lbl', from: 'observed', to: 'patched', event: 'RECONCILE_LABELS' });
  assert.deepEqual(
    labels[0].because.filter((c) => c.rule.startsWith('machine guard ')).map((c) => c.values),
    [{ hasLabelsToUpdate: true, labelsToUpdate: { 'beta.kubernetes.io/os': 'linux' } }],
  );
});

test("MarkPodsNotReady's and DeletePods' machines choose as upstream's checks do, with their values", () => {
  assert.equal(askMarkPodsNotReady('n1', { type: 'MARK_PODS_NOT_READY', podsToMark: 0 }), null, 'no pod to mark: no transition');
  const marked = askMarkPodsNotReady('n1', { type: 'MARK_PODS_NOT_READY', podsToMark: 3 });
  assert.deepEqual(marked, { id: 'markPodsNotReady/n1', from: 'observed', to: 'marked', event: 'MARK_PODS_NOT_READY' });
  assert.deepEqual(
    becauseWithGuards([], marked).map((c) => c.values),
    [{ hasPodsToMark: true, podsToMark: 3 }],
  );
  const cases: { reason: string; keptBy: 'none' | 'deletion in progress' | 'DaemonSet'; to: string; guards: Record<string, unknown>[] }[] = [
    { reason: 'NodeLost', keptBy: 'none', to: 'reasonKept', guards: [{ reasonIsNodeLost: true, statusReason: 'NodeLost' }] },
    { reason: 'NodeLost', keptBy: 'DaemonSet', to: 'reasonKept', guards: [{ reasonIsNodeLost: true, statusReason: 'NodeLost' }] },
    {
      reason: 'none',
      keptBy: 'DaemonSet',
      to: 'statusUpdated',
      guards: [
        { reasonIsNodeLost: false, statusReason: 'none' },
        { keptByDeletePods: true, keptBy: 'DaemonSet' },
      ],
    },
    {
      reason: 'Evicted',
      keptBy: 'deletion in progress',
      to: 'statusUpdated',
      guards: [
        { reasonIsNodeLost: false, statusReason: 'Evicted' },
        { keptByDeletePods: true, keptBy: 'deletion in progress' },
      ],
    },
    {
      reason: 'none',
      keptBy: 'none',
      to: 'statusUpdatedThenDeleted',
      guards: [
        { reasonIsNodeLost: false, statusReason: 'none' },
        { keptByDeletePods: false, keptBy: 'none' },
      ],
    },
  ];
  for (const c of cases) {
    const t = askDeletePodsPod('default/p', { type: 'DELETE_PODS_POD', statusReason: c.reason, keptBy: c.keptBy });
    assert.equal(t.to, c.to, JSON.stringify(c));
    assert.deepEqual(
      becauseWithGuards([], t).map((g) => g.values),
      c.guards,
      JSON.stringify(c),
    );
  }
});

test("a 1.12 pod eviction's PodsMarkedNotReady and a kept DaemonSet pod's PodStatusUpdated record their machines", () => {
  const all = names('n', 4);
  const r = rig({
    minor: 12,
    nodes: all.map((n) => node(n, { zone: 'z1' })),
    pods: [pod('kube-system', 'ds-abc', 'n1', { labels: { app: 'agent' } }), pod('default', 'plain', 'n1')],
    daemonSets: [{ ns: 'kube-system', name: 'agent', selector: { matchLabels: { app: 'agent' } } }],
  });
  drive(r, 400, { alive: () => ['n2', 'n3', 'n4'] });
  const marked = r.decisions('PodsMarkedNotReady', 'Node/n1');
  assert.equal(marked.length, 1);
  assert.deepEqual(marked[0].machine, { id: 'markPodsNotReady/n1', from: 'observed', to: 'marked', event: 'MARK_PODS_NOT_READY' });
  const kept = r.decisions('PodStatusUpdated');
  assert.deepEqual(
    kept.map((d) => [d.object, d.machine?.to]),
    [['Pod/kube-system/ds-abc', 'statusUpdated']],
  );
  assert.deepEqual(
    kept[0].because.filter((c) => c.rule.startsWith('machine guard ')).map((c) => c.values),
    [
      { reasonIsNodeLost: false, statusReason: 'none' },
      { keptByDeletePods: true, keptBy: 'DaemonSet' },
    ],
  );
  assert.deepEqual(
    r.decisions('PodEvicted').map((d) => d.object),
    ['Pod/default/plain'],
  );
  // these machines keep no state: no view, and nothing of theirs in the controller's checkpoint
  const saved = r.c.save() as { transitions: { keys: readonly string[] } };
  assert.deepEqual(
    saved.transitions.keys.filter((id) => !/^(node|zone)\/|^monitor$/.test(id)),
    [],
  );
});
