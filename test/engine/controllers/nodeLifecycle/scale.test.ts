/**
 * Kubernetes' limits (design/performance-notes.md): 5,000 nodes and 150,000
 * pods. Healthy heartbeats never reach the machines, passes only evaluate
 * what changed, and a zone outage is handled without per-pod work on the
 * 100 ms passes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rig, node, lease, pod, drive, iso } from './helpers';

test('5,000 nodes and 150,000 pods: five simulated minutes with a zone outage stay fast', () => {
  const N = 5000;
  const zones = ['a', 'b', 'c'];
  const nodes = Array.from({ length: N }, (_, i) => node(`node-${String(i).padStart(4, '0')}`, { zone: zones[i % 3] }));
  const pods = nodes.flatMap((n) => Array.from({ length: 30 }, (_, j) => pod('default', `${n.meta.name}-p${j}`, n.meta.name)));
  const r = rig({ minor: 35, nodes, leases: nodes.map((n) => lease(n.meta.name, 0)), pods });
  const zoneA = new Set(
    nodes
      .filter((_, i) => i % 3 === 0)
      .slice(0, 400)
      .map((n) => n.meta.name),
  );
  const everyone = nodes.map((n) => n.meta.name);
  const survivors = everyone.filter((n) => !zoneA.has(n));
  const started = performance.now();
  drive(r, 60, { alive: () => everyone, lease: true });
  drive(r, 300, { alive: () => survivors, lease: true });
  const elapsed = performance.now() - started;
  // 400 of 1,667 nodes in zone a fail: 24% < 55%, the zone stays Normal and taints at 0.1/s
  const tainted = r.decisions('TaintAdded').filter((d) => d.summary.includes('NoExecute'));
  assert.equal(r.decisions('PodsMarkedNotReady').length, 400);
  // Unknown at 115 s (last renewal 60 s + 50 s grace, seen by the pass at 115 s), all in one pass
  assert.deepEqual([...new Set(r.times('NodeStatusUnknown'))], [iso(115)]);
  assert.equal(r.decisions('NodeStatusUnknown').length, 400);
  // then one node every 10 s (rate 0.1/s, burst 1), the last of them at 295 s, before the run ends at 300 s
  assert.deepEqual(
    tainted.map((d) => d.time),
    Array.from({ length: 19 }, (_, k) => iso(115 + 10 * k)),
  );
  // no timing assertion: speed is the bench's job; the figure is printed for whoever runs it by hand
  console.log(`# 5000 nodes / 150000 pods, 5 simulated minutes: ${Math.round(elapsed)} ms, ${r.host.decisions.length} decisions`);
});
