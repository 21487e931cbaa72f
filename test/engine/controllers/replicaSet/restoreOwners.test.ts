/**
 * The ReplicaSet controller checks a pod's ownerReferences when its record carries an array it has not
 * checked (core.ts checkPod, `checkedOwners`), and a checkpoint keeps that set itself, not a copy. So
 * after a step back, and after a hand-off (both simulations' controllers then add to one set), a pod
 * made again by the same event must still be checked as a fresh run checks it: its problems, state,
 * trace and machines must be the fresh run's at the same pass. Each case puts a pod with a broken
 * ownerReference (or one that stays right) after the checkpoint a step back restores.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { createSimulation, type SimulationImpl } from '../../../../src/engine/simulation/simulation';
import type { Scenario } from '../../../../src/engine/snapshot/types';
import { freshAt } from '../../../helpers/freshAt';

const dir = mkdtempSync(join(tmpdir(), 'rs-restore-owners-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const owner = (name: string, uid: string, controller = true) =>
  `{apiVersion: apps/v1, kind: ReplicaSet, name: ${name}, uid: ${uid}, controller: ${controller}}`;
/** a Pod as one flow mapping (an event's `apply:`, or an item of `objects:`) */
const pod = (name: string, labels: string, owners: string) =>
  `{apiVersion: v1, kind: Pod, metadata: {name: ${name}, namespace: default, uid: ${name}-uid, labels: ${labels}, ownerReferences: [${owners}]}, ` +
  `spec: {nodeName: node-1, containers: [{name: c, image: nginx}]}, status: {phase: Running, conditions: [{type: Ready, status: "True"}]}}`;
const replicaSet = (name: string, replicas: number) => `
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {name: ${name}, namespace: default, uid: ${name}-uid, generation: 1}
    spec:
      replicas: ${replicas}
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}}}
        spec: {containers: [{name: c, image: nginx}]}`;

function scenario(objects: string, events: string): string {
  return `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
metadata: {name: owners-after-a-checkpoint}
kubernetesVersion: "1.31"
startTime: "2026-01-01T00:00:00Z"
objects:
  - apiVersion: v1
    kind: Node
    metadata: {name: node-1, uid: node-1-uid, labels: {kubernetes.io/hostname: node-1}}
    status:
      conditions:
        - {type: Ready, status: "True", lastHeartbeatTime: "2025-12-31T23:59:58Z", lastTransitionTime: "2025-12-01T00:00:00Z"}
${objects}
events:
${events}`;
}

/** The events fall between passes 6 and 12 (5 s passes); a checkpoint every 2 passes; steps back land on pass 4, before them. */
const BACK = 4;
const END = 14;

interface Case {
  name: string;
  objects?: string;
  events: string;
  /** problem codes the fresh run reports at END (so that the case shows what it means to) */
  reports: string[];
}

const cases: Case[] = [
  {
    name: 'a pod created after the checkpoint with an ownerReference to a ReplicaSet that does not exist',
    events: `  - at: 30s\n    apply: ${pod('stray', '{app: gone}', owner('gone', 'gone-uid'))}\n`,
    reports: ['pod-dangling-owner'],
  },
  {
    name: 'a pod created after the checkpoint with two controller ownerReferences',
    events: `  - at: 30s\n    apply: ${pod('twice', '{app: a}', '{apiVersion: apps/v1, kind: StatefulSet, name: a, uid: a-uid, controller: true}, {apiVersion: apps/v1, kind: DaemonSet, name: b, uid: b-uid, controller: true}')}\n`,
    reports: ['pod-multiple-controllers'],
  },
  {
    name: 'a pod patched after the checkpoint to point at a ReplicaSet that does not exist',
    events:
      `  - at: 20s\n    apply: ${pod('stray', '{app: none}', '')}\n` +
      `  - at: 35s\n    patch: {object: Pod/default/stray, merge: {metadata: {ownerReferences: [${owner('gone', 'gone-uid')}]}}}\n`,
    reports: ['pod-dangling-owner'],
  },
  {
    name: 'a pod adopted by a ReplicaSet deleted later, its labels patched after the checkpoint (it is checked again)',
    objects: replicaSet('web', 1) + `\n  - ${pod('orphan', '{app: web}', '')}`,
    events:
      `  - at: 12s\n    delete: ReplicaSet/default/web\n` + `  - at: 35s\n    patch: {object: Pod/default/orphan, merge: {metadata: {labels: {tier: x}}}}\n`,
    reports: ['pod-dangling-owner'],
  },
  {
    name: 'a pod replaced by an event, its ReplicaSet deleted, its labels patched (not checked again: the same ownerReferences)',
    objects: replicaSet('web', 1) + `\n  - ${pod('web-aaaaa', '{app: web}', owner('web', 'web-uid'))}`,
    events:
      `  - at: 30s\n    apply: ${pod('web-aaaaa', '{app: web, tier: a}', owner('web', 'web-uid'))}\n` +
      `  - at: 40s\n    delete: ReplicaSet/default/web\n` +
      `  - at: 50s\n    patch: {object: Pod/default/web-aaaaa, merge: {metadata: {labels: {tier: b}}}}\n`,
    reports: [],
  },
  {
    name: 'a pod with a broken ownerReference deleted and created again by a later event',
    events:
      `  - at: 30s\n    apply: ${pod('stray', '{app: gone}', owner('gone', 'gone-uid'))}\n` +
      `  - at: 40s\n    delete: Pod/default/stray\n` +
      `  - at: 50s\n    apply: ${pod('stray', '{app: gone}', owner('gone', 'gone-uid'))}\n`,
    reports: ['pod-dangling-owner'],
  },
  {
    name: 'a ReplicaSet deleted under its pod after the checkpoint (the pod is not checked again)',
    objects: replicaSet('web', 1) + `\n  - ${pod('web-aaaaa', '{app: web}', owner('web', 'web-uid'))}`,
    events: `  - at: 30s\n    delete: ReplicaSet/default/web\n`,
    reports: [],
  },
  {
    name: 'a pod created after the checkpoint with an ownerReference without a uid (a checked copy)',
    events: `  - at: 30s\n    apply: ${pod('stray', '{app: gone}', '{apiVersion: apps/v1, kind: ReplicaSet, name: gone, controller: true}')}\n`,
    reports: ['pod-dangling-owner'],
  },
];

const codes = (sim: SimulationImpl) => [...new Set(sim.problems.map((p) => p.code).filter((c) => c.startsWith('pod-') || c.startsWith('replicaset-')))].sort();

function view(sim: SimulationImpl): { problems: string; state: string; machines: string } {
  return { problems: JSON.stringify(sim.problems), state: JSON.stringify(sim.state()), machines: JSON.stringify(sim.machines()) };
}

describe("pods' ownerReferences checked after a checkpoint, as a fresh run checks them", () => {
  cases.forEach((c, i) => {
    const path = join(dir, `case-${i}.yaml`);
    writeFileSync(path, scenario(c.objects ?? '', c.events));
    const loaded: Scenario = loadScenario(path, nodeFs());
    const make = () => createSimulation(loaded, { checkpointEvery: 2 });

    it(`${c.name}: a step back before it and forward again`, () => {
      const fresh = make();
      const expectFresh = freshAt(fresh, [BACK, END], view);
      assert.deepEqual(codes(fresh), c.reports, 'the fresh run reports');
      const sim = make();
      sim.goToPass(END);
      expectFresh(sim, END, 'live');
      for (const round of [1, 2]) {
        sim.goToPass(BACK);
        expectFresh(sim, BACK, `back, round ${round}`);
        sim.goToPass(END);
        expectFresh(sim, END, `forward again, round ${round}`);
      }
    });

    it(`${c.name}: handed off before it, the other simulation running past it first`, () => {
      const expectFresh = freshAt(make(), [BACK + 1, END], view);
      const from = make();
      from.goToPass(BACK - 1);
      from.step(true);
      from.step(true);
      void from.checkpointPasses;
      const to = make();
      to.goToPass(BACK - 1);
      to.step(true);
      let left: boolean | undefined;
      while ((left = to.handOffSlice(from, BACK + 1, () => true)) === true);
      assert.equal(left, false, 'a hand-off was possible');
      expectFresh(to, BACK + 1, 'after the hand-off');
      // the simulation handed from steps through the events first: its controller adds to the set both now hold
      from.goToPass(END);
      expectFresh(from, END, 'the one handed from, on');
      to.goToPass(END);
      expectFresh(to, END, 'the one handed to, on');
    });
  });
});
