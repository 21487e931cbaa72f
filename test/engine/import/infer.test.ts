/**
 * Inferring the timeline: each inferred event says what evidence it came
 * from, and what was assumed where the evidence is silent.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importEvidence } from '../../../src/engine/import/index';
import { inferScenario } from '../../../src/engine/import/infer';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';

const anchor = parseTimestamp('2026-12-31T00:00:00Z')!;
const plan = (files: Record<string, string>, version?: string, known?: Parameters<typeof inferScenario>[2]) => {
  const r = importEvidence(
    Object.entries(files).map(([name, text]) => ({ name, chunks: [text] })),
    { anchor, anchorGiven: true },
  );
  return inferScenario(r, { anchor, anchorGiven: true, version }, known);
};
const events = (p: ReturnType<typeof plan>) => p.events.map((e) => `${formatTime(e.at)} ${JSON.stringify(e.fields)}`);
const lease = (node: string, t: string) =>
  JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: `${node}-${t}`,
    stage: 'ResponseComplete',
    verb: 'update',
    user: { username: `system:node:${node}` },
    objectRef: { resource: 'leases', namespace: 'kube-node-lease', name: node },
    responseStatus: { code: 200 },
    stageTimestamp: t,
  });
const taintLine =
  'I0101 00:01:25.000000       1 controller_utils.go:200] "Added taint to node" taint=[{"key":"node.kubernetes.io/unreachable","effect":"NoSchedule"}] node="n1"\n';

describe('inferring the timeline', () => {
  it('without heartbeats, the kubelet stop is placed nodeMonitorGracePeriod before the controller saw Unknown, and says it is assumed', () => {
    const p = plan({ 'kcm.log': taintLine }, '1.31');
    assert.deepEqual(events(p), ['2026-01-01T00:00:47.500Z {"kubelet":"stop","nodes":["n1"]}']);
    assert.match(p.events[0].why.join('\n'), /^evidence: kcm.log:1: I0101/);
    assert.match(p.events[0].why.join('\n'), /assumed: .*nodeMonitorGracePeriod \(40s\)/);
    assert.equal(formatTime(p.startTime), '2026-01-01T00:00:00.000Z');
  });
  it('from 1.32 the default grace period is 50s, and the stop moves with it', () => {
    assert.deepEqual(events(plan({ 'kcm.log': taintLine }, '1.32')), ['2026-01-01T00:00:37.500Z {"kubelet":"stop","nodes":["n1"]}']);
  });
  it('a NoExecute taint or the taint queue is one pass after Unknown before 1.34, the same pass from 1.34', () => {
    const line = 'I0101 00:01:30.000000       1 node_lifecycle_controller.go:790] "Node is unresponsive. Adding it to the Taint queue" node="n1"\n';
    assert.deepEqual(events(plan({ 'kcm.log': line }, '1.31')), ['2026-01-01T00:00:47.500Z {"kubelet":"stop","nodes":["n1"]}']);
    assert.deepEqual(events(plan({ 'kcm.log': line }, '1.34')), ['2026-01-01T00:00:42.500Z {"kubelet":"stop","nodes":["n1"]}']);
  });
  it('with Lease renewals in an audit log, the kubelet stopped after its last renewal, and started again when they resume', () => {
    const audit = [lease('n1', '2026-01-01T00:00:30Z'), lease('n1', '2026-01-01T00:00:40Z'), lease('n1', '2026-01-01T00:05:00Z')].join('\n');
    const p = plan({ 'audit.log': audit, 'kcm.log': taintLine }, '1.31');
    assert.deepEqual(events(p), ['2026-01-01T00:00:40.001Z {"kubelet":"stop","nodes":["n1"]}', '2026-01-01T00:05:00.000Z {"kubelet":"start","nodes":["n1"]}']);
    assert.match(p.events[0].why.join(' '), /last heartbeat before a silence/);
  });
  it("a user's taint becomes a taint: event citing its audit line", () => {
    const w = (t: string, taints: unknown[]) =>
      JSON.stringify({
        kind: 'Event',
        apiVersion: 'audit.k8s.io/v1',
        level: 'Request',
        auditID: t,
        stage: 'ResponseComplete',
        verb: 'patch',
        user: { username: 'alice' },
        objectRef: { resource: 'nodes', name: 'n1' },
        responseStatus: { code: 200 },
        requestObject: { spec: { taints } },
        stageTimestamp: t,
      });
    const p = plan({ 'audit.log': [w('2026-01-01T00:00:00Z', []), w('2026-01-01T00:01:00Z', [{ key: 'maint', effect: 'NoExecute' }])].join('\n') }, '1.31');
    assert.deepEqual(events(p), ['2026-01-01T00:01:00.000Z {"taint":{"key":"maint","effect":"NoExecute"},"node":"n1"}']);
    assert.match(p.events[0].why.join(' '), /audit.log:2: .* by alice/);
  });
  it('a new controller-manager leader in the log is a restart', () => {
    const log =
      'I0101 00:00:00.000000       1 leaderelection.go:258] successfully acquired lease kube-system/kube-controller-manager\n' +
      'I0101 00:03:00.000000       1 leaderelection.go:258] successfully acquired lease kube-system/kube-controller-manager\n';
    assert.deepEqual(events(plan({ 'kcm.log': log }, '1.31')), ['2026-01-01T00:03:00.000Z {"restartControllerManager":true}']);
  });
  it('pods marked not ready on a node the evidence does not name get a named stand-in, as an assumption', () => {
    const line = (p: string) => `I0101 00:01:25.000000       1 controller_utils.go:129] "Updating ready status of pod to false" pod="d/${p}"\n`;
    const p = plan({ 'kcm.log': line('a') + line('b') }, '1.31');
    assert.deepEqual(events(p), ['2026-01-01T00:00:47.500Z {"kubelet":"stop","nodes":["unnamed-node-1"]}']);
    assert.ok(p.assumptions.some((a) => /d\/a, d\/b\) ran on a node the evidence does not name: called unnamed-node-1/.test(a)));
    assert.deepEqual(
      p.objects.map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`),
      ['Node/unnamed-node-1', 'Lease/unnamed-node-1', 'Pod/a', 'Pod/b'],
    );
  });
  it('pods the taint eviction controller evicted at one instant, on a node its events do not name, share a stand-in whose failure explains them', () => {
    // a `kubectl get events` table: TaintManagerEviction names the pod only (taint_eviction.go)
    const table =
      'NAMESPACE   LAST SEEN   TYPE     REASON                 OBJECT      MESSAGE\n' +
      'd           2m          Normal   TaintManagerEviction   pod/a       Marking for deletion Pod d/a\n' +
      'd           2m          Normal   TaintManagerEviction   pod/b       Marking for deletion Pod d/b\n' +
      'e           1m          Normal   TaintManagerEviction   pod/c       Marking for deletion Pod e/c\n';
    const p = plan({ 'events.txt': table }, '1.31');
    assert.ok(
      p.assumptions.some((a) =>
        /^pods evicted by the taint eviction controller at .* \(d\/a, d\/b\) ran on a node the evidence does not name: called unnamed-node-1$/.test(a),
      ),
    );
    assert.ok(p.assumptions.some((a) => /\(e\/c\) ran on a node the evidence does not name: called unnamed-node-2$/.test(a)));
    // each stand-in's kubelet stops so that its pods' default 300s toleration runs out at their eviction
    const stops = p.events.filter((e) => e.fields.kubelet === 'stop').map((e) => (e.fields.nodes as string[])[0]);
    assert.deepEqual(stops, ['unnamed-node-1', 'unnamed-node-2']);
  });
  it('objects a snapshot holds are not made up again', () => {
    const p = plan({ 'kcm.log': taintLine }, '1.31', { nodes: new Set(['n1']), pods: new Map(), replicaSets: new Set() });
    assert.deepEqual(p.objects, []);
  });
  it('the version comes from --version, else from the evidence, else is assumed and says so', () => {
    assert.equal(plan({ 'kcm.log': taintLine }, '1.20').versionWhy, 'from --version');
    const p = plan({ 'kcm.log': taintLine });
    assert.equal(p.version, '1.31');
    assert.match(p.versionWhy, /^assumed/);
  });
});

describe("a log that names no version is dated by its wording (klogPatterns' minors)", () => {
  const printfTaint =
    'I0516 19:33:12.204484       1 controller_utils.go:200] Added [&Taint{Key:node.kubernetes.io/unreachable,Value:,Effect:NoSchedule,TimeAdded:2019-05-16 19:33:12 +0000 UTC,}] Taint to Node w3\n';
  const oldTaintManager = 'I0827 02:10:50.989653       1 taint_manager.go:106] "NoExecuteTaintManager is deleting pod" pod="ns/p1"\n';
  const newTaintEviction = 'I0827 02:10:50.989653       1 taint_eviction.go:110] "Deleting pod" controller="taint-eviction-controller" pod="ns/p1"\n';
  const structuredEviction =
    'I0827 02:10:40.000000       1 node_lifecycle_controller.go:900] "Node is unresponsive. Adding Pods on Node to eviction queue" node="n1"\n';
  const leader = 'I0101 00:00:01.000000       1 leaderelection.go:260] successfully acquired lease kube-system/kube-controller-manager\n';
  const cases: { name: string; log: string; version: string; why: RegExp }[] = [
    {
      name: 'the printf wording of 1.20 and before',
      log: printfTaint,
      version: '1.20',
      why: /^assumed from the log's wording: kcm\.log:1: .*Taint to Node w3 is printed by 1\.10–1\.20 only, so 1\.20 is simulated/,
    },
    { name: "the taint manager's structured wording of 1.21–1.28", log: oldTaintManager, version: '1.28', why: /is printed by 1\.21–1\.28 only, so 1\.28/ },
    {
      name: "the taint eviction controller's wording of 1.29 on: the default fits",
      log: newTaintEviction,
      version: '1.31',
      why: /is printed by 1\.29 and later, so 1\.31/,
    },
    { name: 'the structured pod-eviction path (1.21–1.26, removed in 1.27)', log: structuredEviction, version: '1.26', why: /1\.21–1\.26 only, so 1\.26/ },
    { name: 'the structured taint line: 1.21 on, the default fits', log: taintLine, version: '1.31', why: /printed by 1\.21 and later, so 1\.31/ },
    { name: 'the leader line, printf in every version, dates nothing', log: leader + taintLine, version: '1.31', why: /1\.21 and later/ },
    {
      name: 'two ranges narrow each other (eviction path 1.21–1.26, taint manager 1.21–1.28)',
      log: structuredEviction + oldTaintManager,
      version: '1.26',
      why: /1\.21–1\.26 only, so 1\.26/,
    },
    {
      name: 'wordings of different versions (an upgrade?) date nothing and say so',
      log: printfTaint + newTaintEviction,
      version: '1.31',
      why: /^assumed: the evidence names no version, and its log lines' wordings belong to different versions/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = plan({ 'kcm.log': c.log });
      assert.equal(p.version, c.version, p.versionWhy);
      assert.match(p.versionWhy, c.why);
      assert.equal(plan({ 'kcm.log': c.log }, '1.24').version, '1.24', '--version wins');
    });
  }
});

describe('inferring with missing evidence', () => {
  it("an audit log without kubelet heartbeats makes the kubelets' liveness an assumption in the scenario", () => {
    const del = JSON.stringify({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'Metadata',
      auditID: 'x',
      stage: 'ResponseComplete',
      verb: 'delete',
      user: { username: 'alice' },
      objectRef: { resource: 'pods', namespace: 'd', name: 'p' },
      responseStatus: { code: 200 },
      stageTimestamp: '2026-01-01T00:00:00Z',
    });
    const p = plan({ 'audit.log': del }, '1.31');
    assert.ok(
      p.assumptions.some((a) => /liveness is unknown/.test(a)),
      JSON.stringify(p.assumptions),
    );
  });
});
