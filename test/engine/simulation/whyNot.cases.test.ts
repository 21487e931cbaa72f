/**
 * The why-nots that issue 15 found wrong, as a user asks them (`explain FILE
 * --object REF`, run to the default horizon): the check that holds the
 * outcome back, by the guard's name and the upstream function it mirrors,
 * with its values, and whether and when it would happen.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { defaultHorizon, parseUntil } from '../../../src/cli/horizon';
import { parseTimestamp } from '../../../src/engine/model/time';
import type { WhyNot, WhyNotOutcome } from '../../../src/engine/trace/whyNot';
import { runCli } from '../../helpers/cliRun';
import { node, pod, replicaSet, scenarioOf, type EventSpec } from '../../helpers/scenario';

interface Case {
  name: string;
  file: string;
  object: string;
  outcome: WhyNotOutcome;
  /** the blocking check, of the item itself or of the why-not it chains to */
  guard: string;
  upstream: RegExp;
  values: Record<string, unknown>;
  when: { never: true } | { conditional: string; at: string };
  /** guards that must not be what the answer blames */
  notBlamed?: string[];
  /** what `explain` prints for it */
  text: RegExp;
}

const cases: Case[] = [
  {
    name: 'a pod in a small zone under PartialDisruption is not evicted because its node is not tainted: ReducedQPSFunc gives the zone rate 0',
    file: 'zone-small-partial.yaml',
    object: 'Pod/default/web-7d9f-6wlhb',
    outcome: 'PodDeletedByTaintEviction',
    guard: 'zoneLimiterQPS',
    upstream: /setLimiterInZone \/ ReducedQPSFunc/,
    values: { zone: 'Zone/us-east-1/us-east-1a', zoneState: 'PartialDisruption', zoneSize: 6, notReady: 4, largeClusterSizeThreshold: 50, rate: 0 },
    when: { never: true },
    text: /deletion by the taint eviction controller: the node has no NoExecute taint .*Node\/node-a1 tainted NoExecute is held back: the zone's rate limiter is at 0: PartialDisruption in a small zone .*ReducedQPSFunc.*zoneSize=6.*largeClusterSizeThreshold=50.*rate=0.*never as things stand \(it would with largeClusterSizeThreshold below the zone's 6 nodes/,
  },
  {
    name: 'a 1.12 DaemonSet pod is never deleted: DeletePods skips it, and no NoExecute taint comes with TaintBasedEvictions off',
    file: 'outage-1.12.yaml',
    object: 'Pod/kube-system/kube-proxy-a1',
    outcome: 'PodDeletedByPodEviction',
    guard: 'deletePodsDeletes',
    upstream: /^DeletePods/,
    values: { node: 'node-a1', daemonSet: 'kube-system/kube-proxy' },
    when: { never: true },
    text: /deletion by the node lifecycle controller \(pod eviction, DeletePods\): DeletePods skips pods managed by a DaemonSet.*daemonSet=kube-system\/kube-proxy.*never as things stand[^\n]*\n {2}deletion by the taint eviction controller: .*TaintBasedEvictions is off: the node lifecycle controller adds no not-ready\/unreachable NoExecute taint at all/,
  },
  {
    name: 'a healthy node whose kubelet posts: nothing fires; the time holds only if the kubelet stopped now',
    file: 'outage-1.12.yaml',
    object: 'Node/node-b1',
    outcome: 'NodeStatusUnknown',
    guard: 'kubeletStopped',
    upstream: /^tryUpdateNodeHealth/,
    values: { lastPost: '2026-01-01T00:10:30.000Z', nextPost: '2026-01-01T00:10:40.000Z', nodeMonitorGracePeriod: '40s' },
    when: { conditional: 'the kubelet stopped now', at: '2026-01-01T00:11:15.000Z' },
    text: /Node\/node-b1 status Unknown: the node's kubelet is running: it posts node status; Ready stays as it is as long as it does.*; if the kubelet stopped now: at \+11m15s \(2026-01-01T00:11:15\.000Z\)\n {2}pods of Node\/node-b1 evicted: Ready is True .*; if the kubelet stopped now, and its zone's rate and queue let it through at once: at \+15m35s \(2026-01-01T00:15:35\.000Z\)/,
  },
];

/** The deepest why-not along `via`: where the blocking check really is. */
function deepest(w: WhyNot): WhyNot {
  return w.via?.blocking && !w.via.blocking.holds && w.blocking?.guard === 'nodeHasNoExecuteTaint' ? deepest(w.via) : w;
}

describe('explain names the check that holds back what the issue found misexplained', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const scenario = loadScenario(join('examples', c.file), nodeFs());
      const sim = createSimulation(scenario);
      sim.runUntil(defaultHorizon(scenario, sim.startTime));
      const all = sim.explain(c.object).whyNot;
      const w = all.find((x) => x.outcome === c.outcome);
      assert.ok(w, `a why-not of ${c.outcome} among ${all.map((x) => x.what).join('; ')}`);
      assert.equal(all[0], w, 'the relevant path comes first');
      const blocking = deepest(w).blocking!;
      assert.equal(blocking.guard, c.guard);
      assert.equal(blocking.holds, false);
      assert.match(blocking.upstream, c.upstream);
      for (const [k, v] of Object.entries(c.values)) assert.deepEqual(blocking.values?.[k], v, `value ${k}`);
      assert.equal(w.wouldFireAt, undefined, 'no time is certain');
      if ('never' in c.when) assert.equal(w.never, true);
      else assert.deepEqual(w.conditional, { if: c.when.conditional, at: c.when.at });
      for (const x of all) assert.equal(x.wouldFireAt, undefined, `${x.what}: nothing fires`);
      const r = await runCli('explain', `examples/${c.file}`, '--object', c.object);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, c.text);
    });
  }

  it("the 1.12 DaemonSet pod's taint-eviction why-not chains to the node's: TaintBasedEvictions is off, so no taint is coming", () => {
    const scenario = loadScenario(join('examples', 'outage-1.12.yaml'), nodeFs());
    const sim = createSimulation(scenario);
    sim.runUntil(defaultHorizon(scenario, sim.startTime));
    const w = sim.explain('Pod/kube-system/kube-proxy-a1').whyNot.find((x) => x.outcome === 'PodDeletedByTaintEviction')!;
    assert.equal(w.blocking!.guard, 'nodeHasNoExecuteTaint');
    assert.equal(w.via!.outcome, 'NodeTaintedNoExecute');
    assert.equal(w.via!.blocking!.guard, 'taintBasedEvictions');
    assert.equal(w.via!.blocking!.values!.TaintBasedEvictions, false);
    assert.equal(w.never, true);
  });
});

/**
 * A ReplicaSet whose pods are not ready (their node went Unknown, MarkPodsNotReady set Ready=False)
 * is asked "why are my pods not replaced": FilterActivePods still counts them (IsPodActive reads
 * the phase and deletionTimestamp, not readiness, in 1.12 as in the newest release), so nothing is
 * created until one is deleted, and the time is that deletion's.
 */
interface ReplicaSetCase {
  name: string;
  file: string;
  until: string;
  values: Record<string, unknown>;
  notReadyPods: string[];
  /** ready pods on a failing node, with why the node is */
  onFailingNodes?: { pod: string; node: string; because: string }[];
  when: { at: string } | { conditional: RegExp; at: string };
  /** the pod's deletion it waits for */
  via: { object: string; outcome: WhyNotOutcome };
}

const replicaSetCases: ReplicaSetCase[] = [
  {
    name: '1.31: two pods on the unreachable nodes are not ready; the first replacement comes with the first taint eviction, at +6m10s',
    file: 'outage-1.31.yaml',
    until: '2m',
    values: { activePods: 12, replicas: 12, notReady: 2 },
    notReadyPods: ['default/web-7d9f-6wlhb', 'default/web-7d9f-gszhb'],
    when: { at: '2026-01-01T00:06:10.000Z' },
    via: { object: 'Pod/default/web-7d9f-6wlhb', outcome: 'PodDeletedByTaintEviction' },
  },
  {
    name: '1.12: the same pods wait for the pod eviction path (podEvictionTimeout, then the zone queue)',
    file: 'outage-1.12.yaml',
    until: '2m',
    values: { activePods: 12, replicas: 12, notReady: 2 },
    notReadyPods: ['default/web-7d9f-6wlhb', 'default/web-7d9f-gszhb'],
    // certain: node-a2 waits out podEvictionTimeout too, and the zone's queue takes it after node-a1 (name order)
    when: { at: '2026-01-01T00:05:25.000Z' },
    via: { object: 'Pod/default/web-7d9f-6wlhb', outcome: 'PodDeletedByPodEviction' },
  },
  {
    name: '1.12, after the first eviction: the second pod goes when the zone queue releases its node, at +5m35s',
    file: 'outage-1.12.yaml',
    until: '5m30s',
    values: { activePods: 12, replicas: 12, notReady: 1 },
    notReadyPods: ['default/web-7d9f-gszhb'],
    when: { at: '2026-01-01T00:05:35.000Z' },
    via: { object: 'Pod/default/web-7d9f-gszhb', outcome: 'PodDeletedByPodEviction' },
  },
  {
    name: '1.31, the kubelet stopped 10 s ago and its pod is still ready: it goes with the taint eviction, and the replacement then (+6m10s)',
    file: 'one-node-stops.yaml',
    until: '40s',
    values: { activePods: 12, replicas: 12, notReady: 0 },
    notReadyPods: [],
    onFailingNodes: [{ pod: 'default/web-7d9f-6wlhb', node: 'node-a1', because: 'its kubelet stopped' }],
    when: { at: '2026-01-01T00:06:10.000Z' },
    via: { object: 'Pod/default/web-7d9f-6wlhb', outcome: 'PodDeletedByTaintEviction' },
  },
];

describe('a ReplicaSet whose pods are not ready: why no replacement, and when the first comes', () => {
  for (const c of replicaSetCases) {
    it(c.name, () => {
      const scenario = loadScenario(join('examples', c.file), nodeFs());
      const sim = createSimulation(scenario);
      sim.runUntil(parseUntil(c.until, sim.startTime));
      const w = sim.explain('ReplicaSet/default/web-7d9f').whyNot.find((x) => x.outcome === 'ReplicaSetPodsCreated');
      assert.ok(w, 'a why-not of the replacement (not "nothing is held back")');
      assert.equal(w.blocking?.guard, 'fewerPodsThanReplicas');
      assert.equal(w.blocking?.holds, false);
      assert.match(w.blocking?.upstream ?? '', /IsPodActive/);
      assert.match(w.blocking?.unmet ?? '', /counts as active until it is Succeeded, Failed or deleted/);
      for (const [k, v] of Object.entries(c.values)) assert.deepEqual(w.blocking?.values?.[k], v, `value ${k}`);
      const listed = w.blocking?.values?.notReadyPods as { pod: string; node: string; notReadySince: string }[];
      assert.deepEqual(
        listed.map((p) => p.pod),
        c.notReadyPods,
      );
      for (const p of listed) assert.ok(p.node && p.notReadySince, `${p.pod}: its node and since when it is not ready`);
      assert.deepEqual(w.blocking?.values?.onFailingNodes, c.onFailingNodes);
      if ('conditional' in c.when) {
        assert.equal(w.wouldFireAt, undefined);
        assert.match(w.conditional?.if ?? '', c.when.conditional);
        assert.equal(w.conditional?.at, c.when.at);
      } else assert.equal(w.wouldFireAt, c.when.at);
      assert.equal(w.via?.object, c.via.object);
      assert.equal(w.via?.outcome, c.via.outcome);
    });
  }
});

/**
 * A ReplicaSet with a pod not ready names its replacement; one being deleted does not (syncReplicaSet
 * skips manageReplicas when rs.DeletionTimestamp is set), whatever its pods' readiness.
 */
describe('a ReplicaSet being deleted names no replacement for its not-ready pods', () => {
  for (const deleting of [false, true]) {
    it(deleting ? 'being deleted: no ReplicaSetPodsCreated why-not' : 'not being deleted: the why-not of its replacement', () => {
      const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
      const notReady = pod('default', 'web-1', 'n1', { labels: { app: 'web' }, owner });
      (notReady.status as { conditions: unknown[] }).conditions = [{ type: 'Ready', status: 'False', lastTransitionTime: '2025-12-31T23:59:00Z' }];
      const rs = replicaSet('default', 'web', 2, { app: 'web' });
      if (deleting) (rs.metadata as Record<string, unknown>).deletionTimestamp = '2025-12-31T23:59:30Z';
      const sim = createSimulation(
        scenarioOf({ objects: [node('n1'), node('n2'), rs, notReady, pod('default', 'web-2', 'n2', { labels: { app: 'web' }, owner })] }),
      );
      sim.runUntil(sim.startTime + 10e6);
      const w = sim.explain('ReplicaSet/default/web').whyNot.find((x) => x.outcome === 'ReplicaSetPodsCreated');
      if (deleting) assert.equal(w, undefined, JSON.stringify(w?.check));
      else assert.deepEqual(w?.blocking?.values?.notReadyPods, [{ pod: 'default/web-1', node: 'n1', notReadySince: '2025-12-31T23:59:00.000Z' }]);
    });
  }
});

/**
 * 1.12's pod-eviction path: node-a1 and node-a2 stop together, so both wait out podEvictionTimeout
 * and are Added to the zone's queue at the same pass (+5m25s); node-a1 takes that token, node-a2
 * the next one, 10 s later at nodeEvictionRate 0.1. The answer counts node-a1 on its way to the
 * queue and names node-a2's time as certain, before the nodes go Unknown and after; on main it
 * gave up on node-a1 (not Ready, not queued yet) and named +5m25s as conditional, a time that
 * never came.
 */
describe('1.12: a node behind another of its zone on the way to the queue has its certain time', () => {
  for (const until of ['45s', '2m']) {
    it(`at +${until}: node-a2's pods and its pod go at +5m35s, node-a1 first`, () => {
      const sim = createSimulation(loadScenario(join('examples', 'outage-1.12.yaml'), nodeFs()));
      sim.runUntil(parseUntil(until, sim.startTime));
      const node = sim.explain('Node/node-a2').whyNot.find((x) => x.outcome === 'NodePodsEvicted');
      const pod = sim.explain('Pod/default/web-7d9f-gszhb').whyNot.find((x) => x.outcome === 'PodDeletedByPodEviction');
      for (const w of [node, pod]) {
        assert.equal(w?.wouldFireAt, '2026-01-01T00:05:35.000Z', JSON.stringify(w?.conditional));
        assert.equal(w?.conditional, undefined);
      }
      const a1 = sim.explain('Node/node-a1').whyNot.find((x) => x.outcome === 'NodePodsEvicted');
      assert.equal(a1?.wouldFireAt, '2026-01-01T00:05:25.000Z');
      sim.runUntil(parseUntil('6m', sim.startTime));
      const evicted = sim.trace.filter((d) => d.action === 'PodEvicted' && d.object === 'Pod/default/web-7d9f-gszhb');
      assert.deepEqual(
        evicted.map((d) => d.time),
        ['2026-01-01T00:05:35.000Z'],
      );
    });
  }
});

/**
 * The timeline read ahead beyond kubelet stops: a `scale` that raises a ReplicaSet above its active
 * pods (its sync at that instant creates them) and a `condition` that sets a node's Ready to False
 * (the monitor pass at that instant queues it for tainting, the zone's queue releases it). Each is
 * named as the condition, with the time the run gives it; on main neither had an answer with a time
 * (the ReplicaSet: none at all; the node: "if the kubelet stopped now", a time that never came).
 */
describe('the timeline read ahead: a scale and a Ready condition named as the condition, with their time', () => {
  const cases: { name: string; file: string; until: string; object: string; outcome: WhyNotOutcome; if: string; at: string; decision: string }[] = [
    {
      name: 'rs-slow-start at +30s: api is scaled to 10 at +1m, its sync creates the 7 then',
      file: 'rs-slow-start.yaml',
      until: '30s',
      object: 'ReplicaSet/default/api',
      outcome: 'ReplicaSetPodsCreated',
      if: 'the timeline scales ReplicaSet/default/api to 10 at 2026-01-01T00:01:00.000Z',
      at: '2026-01-01T00:01:00.000Z',
      decision: 'PodsCreated',
    },
    {
      name: 'rs-slow-start at +2m30s: batch (0 replicas) is scaled to 10 at +3m',
      file: 'rs-slow-start.yaml',
      until: '2m30s',
      object: 'ReplicaSet/default/batch',
      outcome: 'ReplicaSetPodsCreated',
      if: 'the timeline scales ReplicaSet/default/batch to 10 at 2026-01-01T00:03:00.000Z',
      at: '2026-01-01T00:03:00.000Z',
      decision: 'PodsCreated',
    },
    {
      name: 'notready-then-unknown at +20s: node-b1 posts Ready=False at +30s and is tainted not-ready NoExecute then',
      file: 'notready-then-unknown.yaml',
      until: '20s',
      object: 'Node/node-b1',
      outcome: 'NodeTaintedNoExecute',
      if: 'the timeline sets Ready to False at 2026-01-01T00:00:30.000Z',
      at: '2026-01-01T00:00:30.000Z',
      decision: 'TaintAdded',
    },
    // node-a1 and node-a2 stop together: the zone's queue lets node-a1 through first, node-a2 a token
    // (10 s at nodeEvictionRate 0.1) later; main named node-a1's time for both ("and its zone's rate
    // and queue let it through at once")
    {
      name: 'outage-1.31 at +0s: node-a2, stopped with node-a1 at +30s, is tainted a token after it, at +1m20s',
      file: 'outage-1.31.yaml',
      until: '0s',
      object: 'Node/node-a2',
      outcome: 'NodeTaintedNoExecute',
      if: 'the timeline stops the kubelet at 2026-01-01T00:00:30.000Z',
      at: '2026-01-01T00:01:20.000Z',
      decision: 'TaintAdded',
    },
    {
      name: "outage-1.31 at +20s: node-a2's pod goes 300 s after its node's taint, at +6m20s",
      file: 'outage-1.31.yaml',
      until: '20s',
      object: 'Pod/default/web-7d9f-gszhb',
      outcome: 'PodDeletedByTaintEviction',
      if: 'the timeline stops the kubelet at 2026-01-01T00:00:30.000Z',
      at: '2026-01-01T00:06:20.000Z',
      decision: 'PodEvicted',
    },
    {
      name: "outage-1.12 at +20s: node-a2's pod is deleted when the zone's queue releases its node, after node-a1, at +5m35s",
      file: 'outage-1.12.yaml',
      until: '20s',
      object: 'Pod/default/web-7d9f-gszhb',
      outcome: 'PodDeletedByPodEviction',
      if: 'the timeline stops the kubelet at 2026-01-01T00:00:30.000Z',
      at: '2026-01-01T00:05:35.000Z',
      decision: 'PodEvicted',
    },
    // a ReplicaSet whose ready pods are on nodes the timeline stops: main had no time for it at all
    {
      name: "rs-zone-outage at +0s: web-7d9f's first replacement comes with the first of its pods deleted after zone b's kubelets stop, at +6m10s",
      file: 'rs-zone-outage.yaml',
      until: '0s',
      object: 'ReplicaSet/default/web-7d9f',
      outcome: 'ReplicaSetPodsCreated',
      if: 'the timeline stops the kubelet at 2026-01-01T00:00:30.000Z',
      at: '2026-01-01T00:06:10.000Z',
      decision: 'PodsCreated',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const sim = createSimulation(loadScenario(join('examples', c.file), nodeFs()));
      sim.runUntil(parseUntil(c.until, sim.startTime));
      const w = sim.explain(c.object).whyNot.find((x) => x.outcome === c.outcome);
      assert.equal(w?.wouldFireAt, undefined);
      assert.deepEqual(w?.conditional, { if: c.if, at: c.at });
      sim.runUntil(parseTimestamp(c.at)!);
      const first = sim.trace.find((d) => d.object === c.object && d.action === c.decision && parseTimestamp(d.time)! > parseTimestamp(c.at)! - 1);
      assert.equal(first?.time, c.at, 'the run does it at that time');
    });
  }
});

/**
 * A `delete` of the timeline read ahead: a ReplicaSet with all its pods is one short once the timeline
 * deletes one of them, and its sync at that instant creates the replacement. On main its answer was
 * none at all (no shortfall, nothing failing); a delete after another kind of event is not read ahead.
 */
describe('the timeline read ahead: a delete of a ReplicaSet’s pod named as the condition, with its time', () => {
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
  const objects = [
    node('n1'),
    node('n2'),
    replicaSet('default', 'web', 2, { app: 'web' }),
    pod('default', 'web-1', 'n1', { labels: { app: 'web' }, owner }),
    pod('default', 'web-2', 'n2', { labels: { app: 'web' }, owner }),
  ];
  const cases: { name: string; events: EventSpec[]; conditional?: { if: string; at: string } }[] = [
    {
      name: 'deleted at +30s: replaced at +30s',
      events: [{ at: '30s', kind: 'delete', ref: 'Pod/default/web-1' } as EventSpec],
      conditional: { if: 'the timeline deletes Pod/default/web-1 at 2026-01-01T00:00:30.000Z', at: '2026-01-01T00:00:30.000Z' },
    },
    {
      name: 'deleted at +30s after a scale of another ReplicaSet at +20s: still read ahead',
      events: [
        { at: '20s', kind: 'scale', replicaSet: 'default/other', replicas: 3 } as EventSpec,
        { at: '30s', kind: 'delete', ref: 'Pod/default/web-1' } as EventSpec,
      ],
      conditional: { if: 'the timeline deletes Pod/default/web-1 at 2026-01-01T00:00:30.000Z', at: '2026-01-01T00:00:30.000Z' },
    },
    {
      name: 'deleted at +30s after a condition of a node at +20s: not read ahead (an event of another kind may change its pods first)',
      events: [
        { at: '20s', kind: 'condition', target: { nodes: ['n2'] }, condition: { type: 'MemoryPressure', status: 'True' } } as EventSpec,
        { at: '30s', kind: 'delete', ref: 'Pod/default/web-1' } as EventSpec,
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const sim = createSimulation(scenarioOf({ objects, events: c.events }));
      sim.runUntil(sim.startTime + 10e6);
      const w = sim.explain('ReplicaSet/default/web').whyNot.find((x) => x.outcome === 'ReplicaSetPodsCreated');
      assert.deepEqual(w?.conditional, c.conditional);
      if (!c.conditional) return;
      sim.runUntil(sim.startTime + 60e6);
      const created = sim.trace.filter((d) => d.object === 'ReplicaSet/default/web' && d.action === 'PodsCreated').map((d) => d.time);
      assert.deepEqual(created, [c.conditional.at], 'the run replaces it at that time');
    });
  }
});

/**
 * A `taint` of the timeline read ahead: a NoExecute taint a user adds to a Ready node; the taint
 * eviction controller deletes a pod that does not tolerate it then, and one that tolerates it for a
 * while when its tolerationSeconds run out. On main the answer was "the node goes Unknown if the
 * kubelet stopped now", a time that never came.
 */
describe('the timeline read ahead: a NoExecute taint of a pod’s node named as the condition, with its time', () => {
  const taint = { key: 'example.com/maintenance', effect: 'NoExecute' };
  const objects = [
    node('n1'),
    node('n2'),
    pod('default', 'plain', 'n1'),
    pod('default', 'patient', 'n1', { tolerations: [{ key: 'example.com/maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }] }),
  ];
  const event = 'the timeline taints Node/n1 with example.com/maintenance:NoExecute at 2026-01-01T00:00:30.000Z';
  for (const c of [
    { pod: 'plain', at: '2026-01-01T00:00:30.000Z' },
    { pod: 'patient', at: '2026-01-01T00:01:30.000Z' },
  ]) {
    it(`Pod/default/${c.pod}: deleted at ${c.at}`, () => {
      const sim = createSimulation(scenarioOf({ objects, events: [{ at: '30s', kind: 'taint', target: { nodes: ['n1'] }, taint } as EventSpec] }));
      sim.runUntil(sim.startTime + 10e6);
      const w = sim.explain(`Pod/default/${c.pod}`).whyNot.find((x) => x.outcome === 'PodDeletedByTaintEviction');
      assert.equal(w?.wouldFireAt, undefined);
      assert.deepEqual(w?.conditional, { if: event, at: c.at });
      sim.runUntil(sim.startTime + 120e6);
      const evicted = sim.trace.filter((d) => d.object === `Pod/default/${c.pod}` && d.action === 'PodEvicted').map((d) => d.time);
      assert.deepEqual(evicted, [c.at], 'the run deletes it at that time');
    });
  }
});

/**
 * A Ready condition of the timeline read ahead on 1.12's pod-eviction path: the pass that reads
 * Ready=False starts podEvictionTimeout, the first pass past it queues the node, and the zone's queue
 * releases it at once. On main the answer was "if the kubelet stopped now" (the node going Unknown),
 * a time that never came.
 */
describe('the timeline read ahead on 1.12: a Ready=False condition named as the condition of the pod eviction, with its time', () => {
  it('n1 posts Ready=False at +30s: its pod is deleted at +5m35s', () => {
    const objects = [node('n1', { zone: 'a' }), node('n2', { zone: 'a' }), node('n3', { zone: 'a' }), pod('default', 'p1', 'n1')];
    const events = [
      { at: '30s', kind: 'condition', target: { nodes: ['n1'] }, condition: { type: 'Ready', status: 'False', reason: 'KubeletNotReady' } } as EventSpec,
    ];
    const sim = createSimulation(scenarioOf({ objects, events, version: '1.12' }));
    sim.runUntil(sim.startTime + 10e6);
    const at = '2026-01-01T00:05:35.000Z';
    for (const [ref, outcome] of [
      ['Node/n1', 'NodePodsEvicted'],
      ['Pod/default/p1', 'PodDeletedByPodEviction'],
    ]) {
      const w = sim.explain(ref).whyNot.find((x) => x.outcome === outcome);
      assert.equal(w?.wouldFireAt, undefined);
      assert.deepEqual(w?.conditional, { if: 'the timeline sets Ready to False at 2026-01-01T00:00:30.000Z', at }, ref);
    }
    sim.runUntil(sim.startTime + 400e6);
    const evicted = sim.trace.filter((d) => d.object === 'Pod/default/p1' && d.action === 'PodEvicted').map((d) => d.time);
    assert.deepEqual(evicted, [at], 'the run deletes it at that time');
  });
});
