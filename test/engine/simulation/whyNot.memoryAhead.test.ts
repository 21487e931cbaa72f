/**
 * Answers read from the controllers' memory now, against what the next passes do to that memory
 * before the time they name (found by scripts/whyNotHunt.ts; each case runs forward to the time):
 * - a heartbeat the controller reads (a timeline Ready=False) makes its health entry anew without
 *   the Lease, and the pass after reads the same Lease as renewed: probeTimestamp moves once more;
 * - a restart of kube-controller-manager empties the memory the time was read from: no time;
 * - a node going Unknown has its not-ready:NoExecute swapped for unreachable:NoExecute, which
 *   cancels the deletion of a pod that tolerates unreachable forever, and deletes one that does not tolerate it at once.
 * On main (bbafcb2) the first named +3m45s / +4m45s (run +3m50s / +4m50s), the second +2m35s and
 * +2m40s (run +2m45s, +2m50s) and +6m10s (run +7m), the third +8m for a pod never deleted.
 * - a pod on a node the timeline sets Ready=False is read under not-ready:NoExecute (main read it
 *   under unreachable's: toleration-zero at +30s, run +5m30s);
 * - a ReplicaSet's replacement waits for its pods' deletions only while the timeline does not scale
 *   it first (main: "if the timeline stops the kubelet at +30s: at +6m10s", created at +30s);
 * - a node the timeline sets Ready=False is queued behind the zone's nodes on their way to the queue
 *   (main: "at +1m30s" in zone-large-partial, tainted at +59m33.5s).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import type { ScenarioEvent } from '../../../src/engine/snapshot/types';
import { nodeFs } from '../../../src/platform/nodeFs';
import { formatWhyNotWhen } from '../../../src/engine/trace/text';
import { parseTimestamp } from '../../../src/engine/model/time';
import type { WhyNotOutcome } from '../../../src/engine/trace/whyNot';
import { outcomesOf } from '../../helpers/whyNotAudit';

const T = (s: number) => `2026-01-01T00:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000Z`;
const readyFalse = (node: string, at: number) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status: 'False' }, at });
const stop = (node: string, at: number) => ({ kind: 'kubelet', action: 'stop', target: { nodes: [node] }, at });
/**
 * A pod that tolerates not-ready:NoExecute for 10m and not unreachable:NoExecute: its unreachable toleration asks a value
 * the taint lacks, which keeps DefaultTolerationSeconds from adding one (the plugin looks at the key and effect alone).
 */
const notReadyOnly = (node: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'tolerates-not-ready', namespace: 'default', uid: '7e1a0000-0000-4000-8000-0000000c0001', creationTimestamp: '2025-12-31T22:00:00Z' },
  spec: {
    nodeName: node,
    containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }],
    tolerations: [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 600 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Equal', value: 'never', effect: 'NoExecute' },
    ],
  },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T23:50:00Z' }] },
});

const cases: {
  name: string;
  file: string;
  /** events added to the example's, `at` in seconds */
  events: Record<string, unknown>[];
  /** asked after the pass at this second */
  ask: number;
  object: string;
  outcome: WhyNotOutcome;
  /** what the answer says (formatWhyNotWhen) */
  when: string;
  /** words the answer's check must hold (why there is no time) */
  rule?: string;
  /** when the outcome comes in the run (seconds), or never within `horizon` (seconds, 15 minutes unless said) */
  happened: number | 'never';
  horizon?: number;
}[] = [
  {
    name: 'Ready=False on a node whose kubelet is stopped (Lease): the probe moves at the pass after the one that reads it',
    file: 'outage-1.31.yaml',
    events: [readyFalse('node-a1', 180)],
    ask: 180,
    object: 'Node/node-a1',
    outcome: 'NodeStatusUnknown',
    when: `would fire at ${T(230)}`,
    happened: 230,
  },
  {
    name: 'the same asked before the pass that reads the heartbeat: that pass and the next one move it',
    file: 'outage-1.31.yaml',
    events: [readyFalse('node-a1', 182)],
    ask: 182,
    object: 'Node/node-a1',
    outcome: 'NodeStatusUnknown',
    when: `would fire at ${T(235)}`,
    happened: 235,
  },
  {
    name: 'a kubelet stop at the instant of a controller-manager restart: no time (the restart resets probeTimestamp)',
    file: 'restart-mid-outage.yaml',
    events: [stop('node-a4', 120)],
    ask: 60,
    object: 'Node/node-a4',
    outcome: 'NodeStatusUnknown',
    when: '',
    rule: 'the timeline restarts kube-controller-manager at 2026-01-01T00:02:00.000Z',
    happened: 165,
  },
  {
    name: 'its taint, through the same zone queue: no time',
    file: 'restart-mid-outage.yaml',
    events: [stop('node-a4', 120)],
    ask: 60,
    object: 'Node/node-a4',
    outcome: 'NodeTaintedNoExecute',
    when: '',
    rule: 'the timeline restarts kube-controller-manager at 2026-01-01T00:02:00.000Z',
    happened: 170,
  },
  {
    // the new taint eviction controller gives the pod its whole toleration again from the restart (restartAhead.ts)
    name: 'a deletion scheduled before the restart is scheduled anew after it: the restart plus the toleration',
    file: 'restart-mid-outage.yaml',
    events: [],
    ask: 90,
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    when: `if the timeline restarts kube-controller-manager at ${T(120)}: at ${T(420)}`,
    rule: 'the timeline restarts kube-controller-manager',
    happened: 420,
  },
  {
    name: 'after the restart, the new memory gives the time',
    file: 'restart-mid-outage.yaml',
    events: [],
    ask: 120,
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    when: `would fire at ${T(420)}`,
    happened: 420,
  },
  {
    name: "a pod tolerating unreachable forever, scheduled under not-ready: the swap at the node's Unknown cancels it",
    file: 'outage-1.31.yaml',
    events: [readyFalse('node-a1', 180)],
    ask: 185,
    object: 'Pod/default/toleration-forever',
    outcome: 'PodDeletedByTaintEviction',
    when: 'never as things stand',
    rule: 'swapped for node.kubernetes.io/unreachable:NoExecute at 2026-01-01T00:03:55.000Z',
    happened: 'never',
  },
  {
    name: 'the same once the node is Unknown, before the pass that swaps the taint',
    file: 'outage-1.31.yaml',
    events: [readyFalse('node-a1', 180)],
    ask: 230,
    object: 'Pod/default/toleration-forever',
    outcome: 'PodDeletedByTaintEviction',
    when: 'never as things stand',
    rule: 'the node is Unknown',
    happened: 'never',
  },
  {
    // swapAhead.ts' branch for a new taint not tolerated (whynot6): with its time taken away, the answer said +13m10s
    name: 'a pod tolerating not-ready for 10m and not unreachable, scheduled under not-ready: deleted at the swap',
    file: 'outage-1.31.yaml',
    events: [readyFalse('node-a1', 180), { kind: 'apply', object: notReadyOnly('node-a1'), at: 190 }],
    ask: 195,
    object: 'Pod/default/tolerates-not-ready',
    outcome: 'PodDeletedByTaintEviction',
    when: `would fire at ${T(235)}`,
    rule: 'which the pod does not tolerate: it is deleted then',
    happened: 235,
  },
  {
    name: 'a pod tolerating both taints for 5m keeps its deadline across the swap',
    file: 'outage-1.31.yaml',
    events: [readyFalse('node-a1', 180)],
    ask: 185,
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    when: `would fire at ${T(370)}`,
    happened: 370,
  },
  {
    name: 'Ready=False from a kubelet that goes on posting it: no Unknown ahead, so no swap, and the deadline stands',
    file: 'rs-deletion-cost.yaml',
    events: [readyFalse('node-a1', 30)],
    ask: 60,
    object: 'Pod/default/toleration-forever',
    outcome: 'PodDeletedByTaintEviction',
    when: `would fire at ${T(330)}`,
    happened: 330,
  },
  {
    name: "a Ready node the timeline sets Ready=False: its pods are read under not-ready:NoExecute, not unreachable's",
    file: 'rs-deletion-cost.yaml',
    events: [readyFalse('node-a1', 30)],
    ask: 10,
    object: 'Pod/default/toleration-zero',
    outcome: 'PodDeletedByTaintEviction',
    when: `if the timeline sets Ready to False at ${T(30)}: at ${T(330)}`,
    happened: 330,
  },
  {
    // above its 12 active pods, before the deletions it waits for: the sync at the scale creates pods (explain.ts scaledUpFirst)
    name: 'a ReplicaSet waiting for its not-ready pods to be deleted, scaled up by the timeline first: the scale',
    file: 'outage-1.31.yaml',
    events: [{ kind: 'scale', replicaSet: 'default/web-7d9f', replicas: 14, at: 30 }],
    ask: 10,
    object: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsCreated',
    when: `if the timeline scales ReplicaSet/default/web-7d9f to 14 at ${T(30)}: at ${T(30)}`,
    rule: 'the timeline scales ReplicaSet/default/web-7d9f to 14 at 2026-01-01T00:00:30.000Z',
    happened: 30,
  },
  {
    name: 'a Ready node of a zone whose 40 stopped nodes are on their way to the queue, set Ready=False by the timeline: queued behind them',
    file: 'zone-large-partial.yaml',
    events: [readyFalse('node-a46', 90)],
    ask: 65,
    object: 'Node/node-a46',
    outcome: 'NodeTaintedNoExecute',
    when: `if the timeline sets Ready to False at ${T(90)}: at 2026-01-01T00:59:33.500Z`,
    happened: 3573.5,
    horizon: 3700,
  },
];

describe('why-not read against what the next passes do to the memory it reads', () => {
  for (const c of cases)
    it(c.name, () => {
      const base = loadScenario(join('examples', c.file), nodeFs());
      const added = c.events.map((e, i) => ({ ...e, at: { offset: (e.at as number) * 1e6 }, index: base.events.length + i }) as unknown as ScenarioEvent);
      const sim = createSimulation({ ...base, events: [...base.events, ...added] });
      sim.runUntil(sim.startTime + c.ask * 1e6);
      const asked = sim.now;
      const w = whyNotOfControllers(sim, c.object).find((x) => x.outcome === c.outcome);
      assert.ok(w, `no ${c.outcome} answer`);
      assert.equal(formatWhyNotWhen(w), c.when);
      if (c.rule) assert.ok(w.check.rule.includes(c.rule), w.check.rule);
      sim.runUntil(sim.startTime + (c.horizon ?? 900) * 1e6);
      const d = sim.trace.find((x) => parseTimestamp(x.time)! > asked && outcomesOf(x).some((o) => o.object === c.object && o.outcome === c.outcome));
      const happened = d ? parseTimestamp(d.time)! : undefined;
      assert.equal(happened, c.happened === 'never' ? undefined : sim.startTime + c.happened * 1e6);
      // the answer's own time is the run's
      if (w.wouldFireAt) assert.equal(parseTimestamp(w.wouldFireAt), happened);
      if (w.never) assert.equal(happened, undefined);
      // and a time on the timeline's event alone is the run's, the event being in it
      if (w.conditional && /^the timeline [^,]*$/.test(w.conditional.if)) assert.equal(parseTimestamp(w.conditional.at), happened);
    });
});
