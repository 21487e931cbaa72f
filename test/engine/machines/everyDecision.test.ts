/**
 * Issue 15 item 1: each decision of kube-controller-manager's controllers goes through a machine
 * transition. Every decision of every bundled example, and of a scenario whose API calls fail (create,
 * delete and update of the ReplicaSet controller, node and pod writes of the node lifecycle
 * controller, the taint eviction controller's delete), is walked; a decision kind of those
 * controllers without a machine transition fails the test. No kind is let off.
 * ExpectationsPending needs an informer that lags behind the controller's own writes, which the
 * Simulation does not model: it is walked on the ReplicaSet controller's rig, whose informer can lag
 * or lose a pod event.
 * World events are not decisions of a controller (they are what happens to the cluster), and the
 * simplified binder (controller `scheduler`) stands in for kube-scheduler, which is not simulated
 * as machines: both are out of this check.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { defaultHorizon } from '../../../src/cli/horizon';
import type { Decision } from '../../../src/engine/trace/decision';
import { minutes } from '../../../src/engine/model/time';
import { type EventSpec, lease, node, pod, replicaSet, scenarioOf } from '../../helpers/scenario';
import { World, podObject, rsObject, T0 } from '../controllers/replicaSet/harness';
import type { DecisionList } from '../../../src/engine/trace/decisionLog';

const CONTROLLERS: ReadonlySet<string> = new Set(['node-lifecycle', 'taint-eviction', 'replicaset']);

/** The kinds (controller action) of the controllers' decisions that record no machine transition, with one example each. */
function withoutMachine(trace: DecisionList): string[] {
  const out = new Map<string, string>();
  for (const d of trace) {
    if (!CONTROLLERS.has(d.controller) || d.machine) continue;
    const kind = `${d.controller} ${d.action}`;
    if (!out.has(kind)) out.set(kind, `${kind} (#${d.seq} ${d.object})`);
  }
  return [...out.values()].sort();
}

/** Every guard a decision's transition evaluated is in its `because`, each with its values. */
function guardsListed(trace: DecisionList): void {
  for (const d of trace) {
    for (const c of d.because.filter((x) => x.rule.startsWith('machine guard '))) {
      const name = c.rule.slice('machine guard '.length, c.rule.indexOf(':'));
      assert.equal(typeof c.values?.[name], 'boolean', `#${d.seq} ${d.action}: guard ${name} with its answer`);
    }
  }
}

const examples = join(__dirname, '..', '..', '..', 'examples');
for (const file of readdirSync(examples)
  .filter((f) => f.endsWith('.yaml'))
  .sort()) {
  test(`example ${file}: every decision of the controllers records its machine transition`, () => {
    const sim = createSimulation(loadScenario(join(examples, file), nodeFs()));
    sim.runUntil(defaultHorizon(sim.scenario, sim.startTime));
    assert.ok(sim.trace.some((d) => CONTROLLERS.has(d.controller)));
    assert.deepEqual(withoutMachine(sim.trace), []);
    guardsListed(sim.trace);
  });
}

test('API calls that fail: each ApiCallFailed records the transition that chose the call, and the failure before its guards', () => {
  const labels = { app: 'web' };
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
  const names = ['a1', 'a2', 'b1'];
  const scenario = scenarioOf({
    version: '1.31',
    objects: [
      ...names.map((n) => node(n, { zone: n[0] })),
      ...names.map((n) => lease(n, '5s')),
      replicaSet('default', 'web', 2, labels),
      pod('default', 'web-1', 'a1', { labels, owner }),
      pod('default', 'web-2', 'b1', { labels, owner }),
      // no tolerations (a snapshot's pod is taken as it is): deleted as soon as a1 is tainted
      pod('default', 'solo', 'a1'),
      // an orphan the selector matches: adopted (its first PATCH fails)
      pod('default', 'orphan', 'b1', { labels }),
    ],
    events: [
      { at: '0s', kind: 'fail', verb: 'patch', resource: 'pods', count: 1 } as EventSpec,
      // the ReplicaSet controller: two creations fail (slow start stops), then the status write (both attempts)
      { at: '5s', kind: 'fail', verb: 'create', resource: 'pods', count: 2 } as EventSpec,
      { at: '5s', kind: 'fail', verb: 'update', resource: 'replicasets', count: 2 } as EventSpec,
      { at: '5s', kind: 'scale', replicaSet: 'default/web', replicas: 4 } as EventSpec,
      { at: '20s', kind: 'fail', verb: 'delete', resource: 'pods', count: 1 } as EventSpec,
      { at: '20s', kind: 'scale', replicaSet: 'default/web', replicas: 1 } as EventSpec,
      // a pod relabelled away from the selector: released
      { at: '25s', kind: 'patch', ref: 'Pod/default/web-2', merge: { metadata: { labels: { app: 'other' } } } } as EventSpec,
      // a node deleted: NodeRemoved
      { at: '30s', kind: 'delete', ref: 'Node/a2' } as EventSpec,
      // the node lifecycle controller: a1 stops; its status write, MarkPodsNotReady and the taint patch fail once each
      { at: '40s', kind: 'fail', verb: 'update', resource: 'nodes', count: 1 } as EventSpec,
      { at: '40s', kind: 'fail', verb: 'update', resource: 'pods', count: 1 } as EventSpec,
      { at: '40s', kind: 'fail', verb: 'patch', resource: 'nodes', count: 2 } as EventSpec,
      { at: '40s', kind: 'kubelet', action: 'stop', target: { nodes: ['a1'] } } as EventSpec,
      // the taint eviction controller's delete of the pod that tolerates nothing
      { at: '40s', kind: 'fail', verb: 'delete', resource: 'pods', count: 1 } as EventSpec,
    ],
  });
  const sim = createSimulation(scenario, { checkInvariants: true });
  sim.runUntil(sim.startTime + minutes(10));
  assert.deepEqual(
    sim.trace.filter((d) => d.action === 'NodeRemoved').map((d) => [d.object, d.machine?.event]),
    [['Node/a2', 'NODE_DELETED']],
  );
  assert.deepEqual(
    sim.trace.filter((d) => d.action === 'PodsAdopted' || d.action === 'PodsReleased').map((d) => [d.action, d.details!.pods, d.machine?.id]),
    [
      ['PodsAdopted', ['orphan'], 'claimPods/default/web'],
      ['PodsReleased', ['web-2'], 'claimPods/default/web'],
    ],
  );
  const failed = sim.trace.filter((d) => d.action === 'ApiCallFailed');
  const calls = (d: Decision) =>
    `${d.controller} ${(d.because[0].values as { verb: string; resource: string }).verb} ${(d.because[0].values as { resource: string }).resource}`;
  assert.deepEqual(
    [...new Set(failed.map(calls))].sort(),
    [
      'node-lifecycle patch nodes',
      'node-lifecycle update nodes',
      'node-lifecycle update pods',
      'replicaset create pods',
      'replicaset delete pods',
      'replicaset patch pods',
      'replicaset update replicasets',
      'taint-eviction delete pods',
    ],
    'every kind of failure the scenario injects happened',
  );
  assert.deepEqual(withoutMachine(sim.trace), []);
  guardsListed(sim.trace);
  const machineOf = (call: string) => [
    ...new Set(failed.filter((d) => calls(d) === call).map((d) => `${d.machine!.id} ${d.machine!.event} -> ${d.machine!.to}`)),
  ];
  // the machine that chose the call: ExpectCreations / ExpectDeletions, updateReplicaSetStatus's field check, the node's write
  assert.deepEqual(machineOf('replicaset create pods'), ['replicaset/default/web EXPECT -> expectations.pending,queue.syncing']);
  assert.deepEqual(machineOf('replicaset delete pods'), ['replicaset/default/web EXPECT -> expectations.pending,queue.syncing']);
  assert.deepEqual(machineOf('replicaset update replicasets'), ['replicaSetStatus/default/web UPDATE_STATUS -> updated']);
  assert.deepEqual(machineOf('node-lifecycle update nodes'), ['node/a1 STATUS_UNKNOWN_SET -> ready.Unknown,eviction.idle']);
  assert.deepEqual(machineOf('node-lifecycle update pods'), ['markPodsNotReady/a1 MARK_PODS_NOT_READY -> marked']);
  // the failure first (what the user asks about), then the guards of the transition that chose the call
  const create = failed.find((d) => calls(d) === 'replicaset create pods')!;
  assert.match(create.because[0].rule, /a fail: event makes the next API calls of this kind fail/);
  assert.deepEqual(
    create.because.slice(1).map((c) => c.values),
    [{ expectsSomething: true, add: 2, delKeys: 0 }],
  );
  const status = failed.find((d) => calls(d) === 'replicaset update replicasets')!;
  // in upstream's order up to the first field that differs: the counts are equal, the scale raised metadata.generation
  assert.deepEqual(
    status.because.slice(1).map((c) => Object.keys(c.values!)[0]),
    ['replicasDiffer', 'fullyLabeledReplicasDiffer', 'readyReplicasDiffer', 'availableReplicasDiffer', 'terminatingReplicasDiffer', 'generationNotObserved'],
  );
  assert.deepEqual(status.because.at(-1)!.values, { generationNotObserved: true, generation: { generation: 2, observedGeneration: 1 } });
});

test("1.12's doFixDeprecatedTaintKeyPass: its taint swaps and its failed patch record the fixDeprecatedTaintKey machine's transition", () => {
  const deprecated = (key: string) => ({ key, effect: 'NoExecute', timeAdded: '2025-12-31T23:00:00Z' });
  const scenario = scenarioOf({
    version: '1.12',
    objects: [
      node('a1', { zone: 'a', taints: [deprecated('node.alpha.kubernetes.io/notReady')] }),
      node('a2', { zone: 'a', taints: [deprecated('node.alpha.kubernetes.io/unreachable')] }),
      // taints under the new keys only: nothing to swap, no transition
      node('b1', { zone: 'b', taints: [deprecated('node.kubernetes.io/not-ready')] }),
    ],
    // the first swap fails; the node's next status update runs the pass again
    events: [{ at: '0s', kind: 'fail', verb: 'patch', resource: 'nodes', count: 1 } as EventSpec],
  });
  const sim = createSimulation(scenario, { checkInvariants: true });
  sim.runUntil(sim.startTime + minutes(2));
  const fixes = sim.trace.filter((d) => d.source.includes('doFixDeprecatedTaintKeyPass') || d.machine?.id.startsWith('fixDeprecatedTaintKey/'));
  assert.deepEqual(
    fixes.map((d) => [d.action, d.object, d.machine?.id, d.machine?.event, d.machine?.to]),
    [
      ['ApiCallFailed', 'Node/a1', 'fixDeprecatedTaintKey/a1', 'FIX_DEPRECATED_TAINT_KEYS', 'patched'],
      ['TaintAdded', 'Node/a2', 'fixDeprecatedTaintKey/a2', 'FIX_DEPRECATED_TAINT_KEYS', 'patched'],
      ['TaintRemoved', 'Node/a2', 'fixDeprecatedTaintKey/a2', 'FIX_DEPRECATED_TAINT_KEYS', 'patched'],
      ['TaintAdded', 'Node/a1', 'fixDeprecatedTaintKey/a1', 'FIX_DEPRECATED_TAINT_KEYS', 'patched'],
      ['TaintRemoved', 'Node/a1', 'fixDeprecatedTaintKey/a1', 'FIX_DEPRECATED_TAINT_KEYS', 'patched'],
    ],
  );
  // upstream's check, with the taints it collected
  const added = fixes.find((d) => d.action === 'TaintAdded' && d.object === 'Node/a2')!;
  assert.deepEqual(
    added.because.filter((c) => c.rule.startsWith('machine guard ')).map((c) => c.values),
    [{ hasTaintsToAdd: true, taintsToAdd: ['node.kubernetes.io/unreachable:NoExecute'] }],
  );
  assert.deepEqual(withoutMachine(sim.trace), []);
  guardsListed(sim.trace);
  // sim.machine answers the instances: patched for a swapped node, observed for one with nothing to swap
  assert.equal(sim.machine('fixDeprecatedTaintKey/a2')?.state, 'patched');
  assert.equal(sim.machine('fixDeprecatedTaintKey/b1')?.state, 'observed');
  // the last answer recorded for the node: the swap's TaintRemoved
  const removed = fixes.find((d) => d.action === 'TaintRemoved' && d.object === 'Node/a2')!;
  assert.equal(sim.machine('fixDeprecatedTaintKey/a2')?.lastTransition?.seq, removed.seq);
});

test('ExpectationsPending, on the ReplicaSet rig: each records the SatisfiedExpectations transition, fulfilled and expired both false', () => {
  const cases: { name: string; run: () => World; pending: number }[] = [
    {
      name: 'the informer lags behind the creations',
      pending: 1,
      run: () => {
        const w = new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })] });
        w.host.defer = true;
        w.settle();
        w.rs.onReplicaSetEvent(w.host, 'updated', w.replicaSet('default/web'));
        w.settle();
        return w;
      },
    },
    {
      name: 'a deletion whose watch event is lost, then a scale-up: pending until the expectations expire',
      pending: 1,
      run: () => {
        const w = new World({
          minor: 31,
          replicaSets: [rsObject('web', { replicas: 3 })],
          pods: [0, 1, 2].map((i) => podObject(`p${i}`, 'web', { node: 'n1' })),
        });
        w.settle();
        w.host.dropPodEvents = true;
        w.scale('default/web', 2);
        w.settle();
        w.host.dropPodEvents = false;
        w.runUntil(T0 + minutes(1));
        w.scale('default/web', 3);
        w.settle();
        w.runUntil(T0 + minutes(6));
        return w;
      },
    },
  ];
  for (const c of cases) {
    const trace = c.run().host.actions();
    const pending = trace.filter((d) => d.action === 'ExpectationsPending');
    assert.equal(pending.length, c.pending, c.name);
    assert.deepEqual(withoutMachine(trace), [], c.name);
    guardsListed(trace);
    for (const d of pending) {
      assert.deepEqual([d.machine!.id, d.machine!.event, d.machine!.to], ['replicaset/default/web', 'SATISFIED_EXPECTATIONS', d.machine!.from], c.name);
      assert.deepEqual(
        d.because.filter((g) => g.rule.startsWith('machine guard ')).map((g) => Object.entries(g.values!)[0]),
        [
          ['expectationsFulfilled', false],
          ['expectationsExpired', false],
        ],
        c.name,
      );
    }
  }
});
