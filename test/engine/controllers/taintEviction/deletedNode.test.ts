/**
 * A node deleted while its pods wait on its NoExecute taint, in the taint manager of 1.12
 * (taint_manager.go) and 1.19, and the taint eviction controller of 1.31 and the newest release
 * (taint_eviction.go). Upstream, in all of them, handleNodeUpdate with the node not found only
 * forgets the node's taints (taintedNodes): a deletion already scheduled stays and fires at its
 * deadline, and a later update of a pod on the node finds no taints and does nothing. The pods are
 * then the pod garbage collector's (podgc gcOrphaned), which the simulation does not model: the run
 * says so at the deletion event, the deletion's decision says so, and so does the pod's why-not.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario } from '../../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../../src/engine/simulation/simulation';

const node = (name: string) =>
  `{apiVersion: v1, kind: Node, metadata: {name: ${name}, uid: ${name}-uid, labels: {kubernetes.io/hostname: ${name}, topology.kubernetes.io/zone: z}}, ` +
  `status: {conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2025-12-31T23:59:58Z", lastTransitionTime: "2025-12-01T00:00:00Z"}]}}`;
const pod = (name: string, on: string, seconds?: number) =>
  `{apiVersion: v1, kind: Pod, metadata: {name: ${name}, namespace: default, uid: ${name}-uid}, spec: {nodeName: ${on}, containers: [{name: c, image: nginx}], ` +
  `tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute${seconds === undefined ? '' : `, tolerationSeconds: ${seconds}`}}]}, ` +
  `status: {phase: Running, conditions: [{type: Ready, status: "True"}]}}`;

function scenario(version: string, gates: string): string {
  return `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: deleted-node}
kubernetesVersion: "${version}"
startTime: "2026-01-01T00:00:00Z"
controllerManager: {featureGates: {${gates}}}
objects:
  - ${node('node-1')}
  - ${node('node-2')}
  - ${node('node-3')}
  - ${pod('limited', 'node-1', 600)}
  - ${pod('forever', 'node-1')}
  - ${pod('elsewhere', 'node-2', 600)}
events:
  - {at: 10s, kubelet: stop, nodes: [node-1]}
  - at: 4m
    delete: Node/node-1
`;
}

const cases: { name: string; version: string; gates?: string }[] = [
  { name: '1.12 with taint-based evictions on (taint_manager.go)', version: '1.12', gates: 'TaintBasedEvictions: true' },
  { name: '1.19 (taint_manager.go with informers)', version: '1.19' },
  { name: '1.31 (taint_eviction.go)', version: '1.31' },
  { name: 'the newest release', version: '1.37' },
];

describe('a node deleted while its pods have a NoExecute eviction pending', () => {
  for (const c of cases)
    it(`${c.name}: the scheduled deletion fires, the rest is left to the pod GC, which is said not simulated`, () => {
      const sim = createSimulation(parseScenario(scenario(c.version, c.gates ?? ''), 's.yaml').scenario);
      sim.runUntil(sim.startTime + 30 * 60_000_000);
      const scheduled = sim.trace.find((d) => d.action === 'PodEvictionScheduled' && d.object === 'Pod/default/limited');
      assert.ok(scheduled, 'the eviction was scheduled before the deletion');
      const deleted = sim.trace.find((d) => d.action === 'ObjectDeleted' && d.object === 'Node/node-1')!;
      assert.ok(scheduled.seq < deleted.seq);
      // upstream keeps the scheduled work: the pod is deleted at its deadline, after the node is gone
      const evicted = sim.trace.filter((d) => d.action === 'PodEvicted' && d.object === 'Pod/default/limited');
      assert.equal(evicted.length, 1);
      assert.equal(evicted[0].details?.deadline ?? scheduled.details?.deadline, scheduled.details?.deadline);
      assert.ok(evicted[0].seq > deleted.seq);
      assert.equal(sim.trace.filter((d) => d.action === 'PodEvictionCancelled').length, 0, 'nothing is cancelled');
      // the pod tolerating forever stays bound to the missing node: pod GC would delete it
      assert.equal(sim.cluster.pods.get('default/forever')?.nodeName, 'node-1', 'forever stays');
      const gc = sim.problems.filter((p) => p.code === 'pod-gc-not-simulated');
      assert.equal(gc.length, 1);
      assert.match(gc[0].message, /^events\[1\]: Node node-1 is deleted with 2 pods default\/forever, default\/limited bound to it; .*Pod GC is not simulated/);
      assert.equal(gc[0].position?.line, 16, 'at the deletion event');
      assert.ok(deleted.because.some((b) => /pod garbage collector \(gcOrphaned\), which is not simulated/.test(b.rule)));
      const why = sim.explain('Pod/default/forever').whyNot.find((w) => w.outcome === 'PodDeletedByTaintEviction');
      assert.match(why?.check.rule ?? '', /pod garbage collector deletes the pod \(gcOrphaned\), which is not simulated/);
    });
});

it('a pod bound to a node the snapshot never held: its why-not says the node is not in the snapshot, not that it was deleted', () => {
  // the must-gather export's csi-nfs-node pod (shared/fixtures/real) runs on a node the export left out; the why-not
  // said "the pod's node does not exist (deleted: ...)", though nothing was deleted
  const text = scenario('1.31', '')
    .replace(`  - ${pod('elsewhere', 'node-2', 600)}`, `  - ${pod('elsewhere', 'node-2', 600)}\n  - ${pod('orphan', 'node-left-out', 600)}`)
    .replace(/\nevents:[\s\S]*$/, '\nevents:\n  - at: 4m\n    delete: Node/node-1\n');
  const sim = createSimulation(parseScenario(text, 's.yaml').scenario);
  sim.runUntil(sim.startTime + 5 * 60_000_000);
  const rule = (p: string) => sim.explain(p).whyNot.find((w) => w.outcome === 'PodDeletedByTaintEviction')?.check.rule ?? '';
  const cases: { pod: string; says: RegExp; not: RegExp }[] = [
    { pod: 'Pod/default/orphan', says: /node is not in the snapshot \(the export left it out/, not: /deleted:/ },
    { pod: 'Pod/default/forever', says: /node was deleted: the controller forgot its taints/, not: /not in the snapshot/ },
  ];
  for (const c of cases) {
    assert.match(rule(c.pod), c.says, c.pod);
    assert.doesNotMatch(rule(c.pod), c.not, c.pod);
    assert.match(rule(c.pod), /pod garbage collector deletes the pod \(gcOrphaned\), which is not simulated/, c.pod);
  }
});
