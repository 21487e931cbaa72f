/**
 * A node that changes zone while it is queued, tainted or evicted (fuzz seed 1, issue 17: cases
 * 416, 702, 3057, 3248, 5285, 5424, 6778, 6850, 8096, 9006). Upstream keeps one queue per zone and
 * reaches it by the node's current zone key (node_lifecycle_controller.go: markNodeForTainting,
 * evictPods); Add refuses a value only when that zone's set holds it (rate_limited_queue.go). So the
 * node is added to its new zone's queue, which (a new zone: a full bucket) releases it at once,
 * while the queue of the zone it left keeps it. In the checking mode the node health machine used to
 * refuse the second queueing and the run threw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../../src/engine/snapshot/source';

const HB = '2025-12-31T23:59:55Z';

function nodeYaml(name: string, zone: string): string {
  return `  - apiVersion: v1
    kind: Node
    metadata: {name: ${name}, uid: uid-${name}, creationTimestamp: "2025-12-01T00:00:00Z", labels: {topology.kubernetes.io/region: r, topology.kubernetes.io/zone: ${zone}}}
    status:
      conditions:
        - {type: Ready, status: "True", reason: KubeletReady, lastHeartbeatTime: "${HB}", lastTransitionTime: "2025-12-01T00:00:00Z"}
`;
}

function podYaml(name: string, nodeName: string): string {
  return `  - apiVersion: v1
    kind: Pod
    metadata: {name: ${name}, namespace: default, uid: uid-${name}, creationTimestamp: "2025-12-31T00:00:00Z"}
    spec: {nodeName: ${nodeName}, containers: [{name: c, image: x}]}
    status: {phase: Running, conditions: [{type: Ready, status: "True", lastTransitionTime: "2025-12-31T00:00:00Z"}]}
`;
}

/** Zone z1: a1 … a5, z2: b1 … b3; a1 and a2 stop at 10 s; `mover` is patched into z2 at `moveAt`. */
function scenario(version: string, settings: string, mover: string, moveAt: string, more = ''): string {
  const names = ['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => nodeYaml(n, 'z1')).join('') + ['b1', 'b2', 'b3'].map((n) => nodeYaml(n, 'z2')).join('');
  return `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: zone-move}
kubernetesVersion: "${version}"
startTime: "2026-01-01T00:00:00Z"
controllerManager: {${settings}}
objects:
${names}${podYaml('p1', 'a1')}${podYaml('p2', 'a2')}events:
  - {at: 10s, kubelet: stop, nodes: [a1, a2]}
  - {at: ${moveAt}, patch: {object: Node/${mover}, merge: {metadata: {labels: {topology.kubernetes.io/zone: z2}}}}}
${more}`;
}

interface Case {
  name: string;
  version: string;
  settings: string;
  mover: string;
  moveAt: string;
  /** the mover's eviction state just before the move */
  before: string;
  /** decisions about the mover after the move, in order (action and the zone or object it names) */
  after: string[];
  /** events after the move */
  more?: string;
}

// nodeEvictionRate 0.01: a zone queue releases one node per 100 s; the first (a1) leaves at once, a2 waits.
const TAINT = 'nodeEvictionRate: 0.01';
const EVICT = 'nodeEvictionRate: 0.01, podEvictionTimeout: 30s';
const cases: Case[] = [
  {
    name: '1.35: queued for tainting, then moved: queued in z2 too, tainted by z2 at once',
    version: '1.35',
    settings: TAINT,
    mover: 'a2',
    moveAt: '90s',
    before: 'queuedForTainting',
    after: ['NodeQueuedForTainting z2', 'TaintAdded unreachable'],
  },
  {
    name: '1.12 (TaintBasedEvictions): queued for tainting, then moved',
    version: '1.12',
    settings: `${TAINT}, featureGates: {TaintBasedEvictions: true}`,
    mover: 'a2',
    moveAt: '90s',
    before: 'queuedForTainting',
    after: ['NodeQueuedForTainting z2', 'TaintAdded unreachable'],
  },
  {
    name: "1.35: tainted, then moved: z2's queue does not hold it, so it is queued there and the taint re-added",
    version: '1.35',
    settings: TAINT,
    mover: 'a1',
    moveAt: '90s',
    before: 'tainted',
    after: ['NodeQueuedForTainting z2', 'TaintAdded unreachable'],
  },
  {
    name: '1.12 (TaintBasedEvictions): tainted, then moved',
    version: '1.12',
    settings: `${TAINT}, featureGates: {TaintBasedEvictions: true}`,
    mover: 'a1',
    moveAt: '90s',
    before: 'tainted',
    after: ['NodeQueuedForTainting z2', 'TaintAdded unreachable'],
  },
  {
    name: '1.12: queued for eviction, then moved: queued in z2 too, its pod deleted by z2 at once',
    version: '1.12',
    settings: EVICT,
    mover: 'a2',
    moveAt: '120s',
    before: 'queuedForEviction',
    after: ['NodeQueuedForEviction z2', 'PodEvicted p2'],
  },
  {
    name: '1.26 (no taint manager): queued for eviction, then moved',
    version: '1.26',
    settings: `${EVICT}, enableTaintManager: false`,
    mover: 'a2',
    moveAt: '120s',
    before: 'queuedForEviction',
    after: ['NodeQueuedForEviction z2', 'PodEvicted p2'],
  },
  {
    name: "1.12: evicted, then moved: z2's queue does not hold it, so it is queued there again (case 8096)",
    version: '1.12',
    settings: EVICT,
    mover: 'a1',
    moveAt: '120s',
    before: 'evicted',
    after: ['NodeQueuedForEviction z2'],
  },
  {
    name: '1.26 (no taint manager): evicted, then moved: nodeEvictionMap says evicted, evictPods adds it to no queue',
    version: '1.26',
    settings: `${EVICT}, enableTaintManager: false`,
    mover: 'a1',
    moveAt: '120s',
    before: 'evicted',
    after: [],
  },
  {
    name: "1.26 (no taint manager): queued, moved, evicted by z2, Ready again, back to z1: z1's queue kept it, cancelPodEviction removes it",
    version: '1.26',
    settings: `${EVICT}, enableTaintManager: false`,
    mover: 'a2',
    moveAt: '120s',
    before: 'queuedForEviction',
    after: ['NodeQueuedForEviction z2', 'PodEvicted p2', 'EvictionCancelled z1'],
    more: `  - {at: 125s, kubelet: start, nodes: [a2]}
  - {at: 133s, patch: {object: Node/a2, merge: {metadata: {labels: {topology.kubernetes.io/zone: z1}}}}}
`,
  },
  {
    name: "1.35: queued, moved, tainted by z2, Ready again, back to z1 as NotReady: z1's queue kept it and taints it",
    version: '1.35',
    settings: `${TAINT}, nodeMonitorGracePeriod: 10s`,
    mover: 'a2',
    moveAt: '90s',
    before: 'queuedForTainting',
    after: ['NodeQueuedForTainting z2', 'TaintAdded unreachable', 'NodeQueuedForTainting z1', 'TaintAdded not-ready'],
    more: `  - {at: 95s, kubelet: start, nodes: [a2]}
  - {at: 102s, patch: {object: Node/a2, merge: {metadata: {labels: {topology.kubernetes.io/zone: z1}}}}}
  - {at: 102s, node: a2, condition: {type: Ready, status: "False"}}
`,
  },
];

for (const c of cases) {
  test(`zone move: ${c.name}`, () => {
    const files = { '/s/scenario.yaml': scenario(c.version, c.settings, c.mover, c.moveAt, c.more) };
    const sc = loadScenario('/s/scenario.yaml', new MemoryFs(files));
    assert.deepEqual(
      sc.problems.filter((p) => p.severity === 'error'),
      [],
    );
    // the checking mode: strict machines, and the invariants
    const sim = createSimulation(sc, { checkInvariants: true });
    const move = sim.startTime + Number.parseInt(c.moveAt, 10) * 1_000_000;
    sim.runUntil(move - 1);
    assert.match(sim.machines().find((m) => m.id === `node/${c.mover}`)?.state ?? '', new RegExp(`eviction\\.${c.before}`));
    sim.runUntil(move + 40_000_000);
    const seen = sim.trace
      .filter((d) => Date.parse(d.time) * 1000 >= move)
      .filter((d) => d.object === `Node/${c.mover}` || d.object === `Pod/default/p${c.mover.slice(1)}`)
      // the node lifecycle controller's (on the taint path the taint eviction controller deletes the pods)
      .filter(
        (d) =>
          d.controller === 'node-lifecycle' &&
          !d.summary.includes(':NoSchedule') &&
          ['NodeQueuedForTainting', 'TaintAdded', 'NodeQueuedForEviction', 'PodEvicted', 'EvictionCancelled'].includes(d.action),
      )
      .map((d) =>
        d.action === 'TaintAdded'
          ? `TaintAdded ${d.summary.includes('unreachable:NoExecute') ? 'unreachable' : d.summary.includes('not-ready:NoExecute') ? 'not-ready' : d.summary}`
          : d.action === 'PodEvicted'
            ? `PodEvicted p${c.mover.slice(1)}`
            : `${d.action} ${d.summary.includes('/z2') ? 'z2' : d.summary.includes('/z1') || JSON.stringify(d.because).includes('/z1') ? 'z1' : d.summary}`,
      );
    assert.deepEqual(seen, c.after);
    // a tainted node queued in its new zone: the decision says it carries the taint already
    const queued = sim.trace.find((d) => Date.parse(d.time) * 1000 >= move && d.action === 'NodeQueuedForTainting' && d.object === `Node/${c.mover}`);
    if (queued) assert.equal(queued.because[1]?.rule.startsWith('the node carries'), c.before === 'tainted', queued.because[1]?.rule);
    assert.deepEqual(sim.invariants?.violations ?? [], []);
    // the zone it left keeps it (upstream never tells that queue)
    sim.runUntil(sim.startTime + 600_000_000);
    assert.deepEqual(sim.invariants?.violations ?? [], []);
  });
}
