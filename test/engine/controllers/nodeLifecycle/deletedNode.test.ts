/**
 * A `delete: Node/NAME` event, as the node lifecycle controller of 1.12 and of the newest release
 * sees it (monitorNodeHealth / monitorNodeStatus, classifyNodes' deleted nodes, doEvictionPass,
 * doNoExecuteTaintingPass, tryUpdateNodeHealth). Upstream, in both:
 * - the node leaves knownNodeSet ("Controller observed a Node deletion"), the zone's conditions
 *   (zoneToNodeConditions is built from the node list) and so its counts; our node machine goes too;
 * - nodeHealthMap (1.12: nodeStatusMap) has no delete: the entry stays, and a node created again
 *   under the name is read against it (the saved Ready condition and Lease, the probe time);
 * - nothing takes the node out of its zone's queue: the tainting pass drops it when it comes up
 *   ("no longer present in nodeLister", no taint), while 1.12's doEvictionPass only logs that and
 *   runs DeletePods on the node's name all the same.
 * Each case runs with the checking mode on (a node machine that refuses an event throws), and is
 * stepped back before the deletion and forward again against a fresh run.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import type { Health } from '../../../../src/engine/controllers/nodeLifecycle/state';
import { freshAt } from '../../../helpers/freshAt';

const dir = mkdtempSync(join(tmpdir(), 'deleted-node-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const START = Date.parse('2026-01-01T00:00:00Z');
const node = (name: string, heartbeat = '2025-12-31T23:59:58Z', zone = 'z') =>
  `{apiVersion: v1, kind: Node, metadata: {name: ${name}, uid: ${name}-uid, labels: {kubernetes.io/hostname: ${name}, topology.kubernetes.io/zone: ${zone}}}, ` +
  `status: {conditions: [{type: Ready, status: "True", lastHeartbeatTime: "${heartbeat}", lastTransitionTime: "2025-12-01T00:00:00Z"}]}}`;
const pod = (name: string, on: string) =>
  `{apiVersion: v1, kind: Pod, metadata: {name: ${name}, namespace: default, uid: ${name}-uid}, spec: {nodeName: ${on}, containers: [{name: c, image: nginx}]}, ` +
  `status: {phase: Running, conditions: [{type: Ready, status: "True"}]}}`;
const NODES = Array.from({ length: 10 }, (_, i) => `node-${i + 1}`);

/**
 * Ten nodes in zone z, a pod on each; node-1's and node-2's kubelets stop at 30 s, node-2 is deleted (and maybe
 * created again). `solo`: an eleventh node alone in zone y, deleted at 40 s and created again (heartbeat and all) then.
 */
function scenario(c: Case): string {
  const { version, deleteAt, createdAgain, solo } = c;
  return `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: deleted-node}
kubernetesVersion: "${version}"
startTime: "2026-01-01T00:00:00Z"
controllerManager: {${c.settings ?? ''}}
objects:
${NODES.map((n) => `  - ${node(n)}\n  - ${pod(`p-${n}`, n)}`).join('\n')}
${solo ? `  - ${node('solo', undefined, 'y')}\n` : ''}events:
  - {at: 30s, kubelet: stop, nodes: [node-1, node-2]}
  - at: ${deleteAt}
    delete: Node/node-2
${createdAgain ? `  - at: ${createdAgain.at}\n    apply: ${node('node-2', createdAgain.heartbeat)}\n` : ''}${
    solo ? `  - at: 40s\n    delete: Node/solo\n  - at: ${solo.createdAgainAt}\n    apply: ${node('solo', '2026-01-01T00:01:39Z', 'y')}\n` : ''
  }`;
}

const nlcOf = (sim: SimulationImpl) => (sim.controllers.find((c) => c.name === 'node-lifecycle') as unknown as { s: { health: Map<string, Health> } }).s;
const seconds = (iso: string) => (Date.parse(iso) - START) / 1000;
const of2 = (sim: SimulationImpl, action: string, object = 'Node/node-2') => sim.trace.filter((d) => d.action === action && d.object === object);

interface Case {
  name: string;
  version: string;
  deleteAt: string;
  createdAgain?: { at: string; heartbeat?: string };
  solo?: { createdAgainAt: string };
  settings?: string;
  /** the pass looked at, and a pass before the deletion to step back to */
  at: number;
  back: number;
  expect: (sim: SimulationImpl) => void;
}

/** What every case holds between the deletion and a creation again: the node is gone from the controller's views but its health entry. */
function goneButHealth(sim: SimulationImpl): void {
  assert.ok(nlcOf(sim).health.has('node-2'), 'nodeHealthMap keeps the deleted node (upstream never deletes an entry)');
  assert.ok(!sim.machines().some((m) => m.id === 'node/node-2'), 'no machine view of the deleted node');
  const zone = sim.zones().find((z) => z.zone === 'Zone/z')!;
  assert.deepEqual({ nodes: zone.nodes, notReady: zone.notReady }, { nodes: 9, notReady: 1 }, "the zone's counts without the deleted node");
  assert.equal(of2(sim, 'NodeRemoved').length, 1, 'removed once');
}

const cases: Case[] = [
  {
    name: '1.35: deleted while queued for tainting: dropped from the queue when it comes up, never tainted NoExecute',
    version: '1.35',
    deleteAt: '78s',
    at: 30,
    back: 14,
    expect: (sim) => {
      goneButHealth(sim);
      assert.equal(of2(sim, 'NodeQueuedForTainting').length, 1, 'it had been queued');
      assert.ok(!of2(sim, 'TaintAdded').some((d) => d.summary.includes('NoExecute')), 'no NoExecute taint for the deleted node');
      assert.ok(!sim.zones()[0].queued.includes('node-2'), 'not queued any more');
      assert.ok(sim.cluster.pods.has('default/p-node-2'), 'its pod stays (pod GC is not simulated)');
    },
  },
  {
    name: '1.12: deleted while queued for eviction: its pods are deleted when the zone queue releases it (doEvictionPass, DeletePods on its name)',
    version: '1.12',
    deleteAt: '327s',
    at: 75,
    back: 60,
    expect: (sim) => {
      goneButHealth(sim);
      const removed = seconds(of2(sim, 'NodeRemoved')[0].time);
      const evicted = of2(sim, 'PodEvicted', 'Pod/default/p-node-2');
      assert.equal(evicted.length, 1, 'the deleted node’s pod is deleted by the eviction queue');
      assert.ok(seconds(evicted[0].time) > removed, 'after the node was removed from the controller');
      assert.equal(evicted[0].machine?.id, 'deletePods/default/p-node-2', "recorded with DeletePods' machine (the node's went with the node)");
      assert.ok(!sim.cluster.pods.has('default/p-node-2'));
    },
  },
  {
    name: '1.26 without the taint manager (nodeEvictionMap): deleted while queued for eviction: its pods are deleted all the same',
    version: '1.26',
    settings: 'enableTaintManager: false',
    deleteAt: '327s',
    at: 75,
    back: 60,
    expect: (sim) => {
      goneButHealth(sim);
      assert.equal(of2(sim, 'PodEvicted', 'Pod/default/p-node-2').length, 1);
      assert.ok(!sim.cluster.pods.has('default/p-node-2'));
    },
  },
  {
    name: '1.12: deleted before its pods were queued for eviction: they stay (the controller no longer looks at the node)',
    version: '1.12',
    deleteAt: '100s',
    at: 80,
    back: 15,
    expect: (sim) => {
      goneButHealth(sim);
      assert.equal(of2(sim, 'NodeQueuedForEviction').length, 0);
      assert.ok(sim.cluster.pods.has('default/p-node-2'));
    },
  },
  {
    name: '1.35: created again with the status it had: the kept entry has the same heartbeat and Lease, so the old probe stands and it is Unknown at once',
    version: '1.35',
    deleteAt: '100s',
    createdAgain: { at: '200s' },
    at: 45,
    back: 15,
    expect: (sim) => {
      const registered = of2(sim, 'NodeRegistered').map((d) => seconds(d.time));
      assert.deepEqual(registered, [0, 200]);
      const unknown = of2(sim, 'NodeStatusUnknown').map((d) => seconds(d.time));
      assert.deepEqual(unknown, [75, 200], 'Unknown again in the pass that registers it');
      assert.ok(
        sim.machines().some((m) => m.id === 'node/node-2'),
        'a machine again',
      );
      assert.deepEqual({ nodes: sim.zones()[0].nodes, notReady: sim.zones()[0].notReady }, { nodes: 10, notReady: 2 });
    },
  },
  {
    name: '1.35: created again with a newer heartbeat: the probe moves to now, so it is not Unknown at its registration (and its kubelet, running, keeps it Ready)',
    version: '1.35',
    deleteAt: '100s',
    createdAgain: { at: '200s', heartbeat: '2026-01-01T00:03:15Z' },
    at: 60,
    back: 15,
    expect: (sim) => {
      assert.deepEqual(
        of2(sim, 'NodeStatusUnknown').map((d) => seconds(d.time)),
        [75],
      );
      assert.equal(of2(sim, 'NodeRegistered').length, 2);
      assert.ok(nlcOf(sim).health.get('node-2')!.probe >= (START + 200_000) * 1000, 'probed at its registration or later');
    },
  },
  {
    name: '1.12: created again with the snapshot’s status: the kept entry saw later posts, so the probe moves to now',
    version: '1.12',
    deleteAt: '100s',
    createdAgain: { at: '200s' },
    at: 60,
    back: 15,
    expect: (sim) => {
      const unknown = of2(sim, 'NodeStatusUnknown').map((d) => seconds(d.time));
      // nodeMonitorGracePeriod 40 s from the probe at 200 s
      assert.deepEqual(unknown, [65, 245]);
    },
  },
  {
    name: '1.35: the last node of a zone deleted: the zone is dropped (handleDisruption deletes its state), and a node created in it again starts it anew',
    version: '1.35',
    deleteAt: '78s',
    solo: { createdAgainAt: '100s' },
    at: 25,
    back: 5,
    expect: (sim) => {
      const zoneY = sim.trace.filter((d) => d.object === 'Zone/y' && d.action === 'ZoneStateChanged').map((d) => [seconds(d.time), d.summary]);
      // Initial -> Normal at the start, dropped at the pass after the deletion, Initial -> Normal again with the new node
      assert.deepEqual(
        zoneY.map(([t]) => t),
        [0, 100],
      );
      assert.ok(
        zoneY.every(([, summary]) => String(summary).includes('(was Initial)')),
        JSON.stringify(zoneY),
      );
      assert.deepEqual(
        sim.zones().map((z) => [z.zone, z.nodes]),
        [
          ['Zone/y', 1],
          ['Zone/z', 9],
        ],
      );
    },
  },
];

function view(sim: SimulationImpl): { state: string; machines: string; health: string } {
  return { state: JSON.stringify(sim.state()), machines: JSON.stringify(sim.machines()), health: JSON.stringify([...nlcOf(sim).health]) };
}

describe('a deleted node, as the node lifecycle controller sees it (1.12 and the newest release)', () => {
  cases.forEach((c, i) => {
    const path = join(dir, `case-${i}.yaml`);
    writeFileSync(path, scenario(c));
    const loaded = loadScenario(path, nodeFs());
    const make = () => createSimulation(loaded, { checkpointEvery: 5, checkInvariants: true });
    it(c.name, () => {
      const expectFresh = freshAt(make(), [c.back, c.at], view);
      const sim = make();
      sim.goToPass(c.at);
      c.expect(sim);
      sim.goToPass(c.back);
      expectFresh(sim, c.back, 'stepped back before the deletion');
      sim.goToPass(c.at);
      expectFresh(sim, c.at, 'forward again');
      c.expect(sim);
    });
  });
});
