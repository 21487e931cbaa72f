/**
 * The pods' slots (controllers' PodSlot): the host keeps one per pod key, with the pod's record and
 * the node it is indexed under, and hands it to MarkPodsNotReady (podsOn) and to every controller
 * told of the pod, so that the pod map, the host's index and the ReplicaSet controller's owner index
 * are not looked up for it. A slot outlives step backs and restarts, which make the host's fields
 * and each controller's index anew, so the fields are read only under the stamp they were written
 * with. Each scenario runs with `checks.podSlots` (every slot read is compared with the maps)
 * through steps, step backs, jumps and restarts, and must decide what a run without slots decides
 * (a host that hands no slot). The last cases corrupt a slot and must be caught: the checks can fail.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import type { ControllerHost } from '../../../src/engine/controllers/controllerHost';
import type { PodSlot } from '../../../src/engine/controllers/controller';
import { nodeFs } from '../../../src/platform/nodeFs';
import { writeZoneOutage } from '../../helpers/generatedOutage';

const examples = join(__dirname, '..', '..', '..', 'examples');

type Op = (sim: SimulationImpl) => void;
const back: Op = (sim) => sim.goToPass(Math.max(0, (sim.pass ?? 0) - 1));
const steps =
  (n: number): Op =>
  (sim) => {
    for (let i = 0; i < n; i++) sim.step(true);
  };
/** steps, step backs across the Unknown pass, a jump back and forward again, a run to a time */
const OPS: Op[] = [steps(12), back, back, steps(4), (sim) => sim.goToPass(3), (sim) => sim.goToPass(40), back, (sim) => sim.runUntil(sim.now + 120e6), back];

/** A host that keeps no slots: podSlot is not there, and no slot reaches updatePod or the controllers. */
function withoutSlots(sim: SimulationImpl): void {
  const host = sim.host as unknown as ControllerHost & { podSlot?: unknown; notifyPod: (...a: unknown[]) => void };
  host.podSlot = undefined;
  const notify = host.notifyPod.bind(host);
  host.notifyPod = (type, pod, before, key) => notify(type, pod, before, key, undefined);
}

function run(file: string, slots: boolean): string {
  const sim = createSimulation(loadScenario(file, nodeFs()), { checkpointEvery: 5, checks: slots ? { podSlots: true } : {} });
  if (!slots) withoutSlots(sim);
  const trail: string[] = [];
  for (const op of OPS) {
    op(sim);
    trail.push(`${sim.pass} ${sim.trace.length}`);
  }
  return `${trail.join(',')}\n${traceToJsonLines(sim.trace)}`;
}

describe('pod slots decide what the maps decide', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pod-slots-'));
  const cases: { name: string; file: () => string }[] = [
    {
      name: 'a generated zone outage (1,200 pods marked not ready in one pass)',
      file: () => writeZoneOutage(dir, 10, { nodes: 240, seed: 'pod-slots', recoverAt: '4m' }),
    },
    { name: 'a restart of the controller-manager mid-outage', file: () => join(examples, 'restart-mid-outage.yaml') },
    { name: 'a ReplicaSet scale-down (1.31)', file: () => join(examples, 'rs-scale-down-1.31.yaml') },
    { name: 'a zone outage with ReplicaSets', file: () => join(examples, 'rs-zone-outage.yaml') },
    { name: 'the 1.12 outage (pod eviction, no taints)', file: () => join(examples, 'outage-1.12.yaml') },
  ];
  for (const c of cases)
    it(`${c.name}: the same trace with slots (checked) as without`, () => {
      const file = c.file();
      assert.equal(run(file, true), run(file, false));
    });
  it('cleans up', () => rmSync(dir, { recursive: true, force: true }));
});

describe('the slot checks catch a slot that disagrees with the maps', () => {
  const file = join(examples, 'rs-zone-outage.yaml');
  const slotOf = (sim: SimulationImpl): PodSlot & { node?: string } => {
    const key = [...sim.cluster.pods.keys()].find((k) => sim.cluster.pods.get(k)!.nodeName)!;
    return sim.host.podSlot(key)! as PodSlot & { node?: string };
  };
  const replicaSetIndex = (sim: SimulationImpl) => sim.controllers.find((c) => c.name === 'replicaset') as unknown as { ownerIndex: object };
  const corruptions: { name: string; corrupt: (sim: SimulationImpl) => void; error: RegExp | null }[] = [
    {
      name: "the host's slot says another node than the index",
      corrupt: (sim) => {
        slotOf(sim).node = 'elsewhere';
      },
      error: /pod slots: the slot of Pod .* says node elsewhere/,
    },
    {
      name: "the ReplicaSet controller's set on a slot is not its owner index's",
      corrupt: (sim) => {
        const slot = slotOf(sim);
        slot.ownerSet = new Map();
        slot.ownerIndex = replicaSetIndex(sim).ownerIndex;
      },
      error: /replicaset: the slot of pod .* holds another set than the owner index/,
    },
    {
      name: 'a set written under a stamp of another index (a restored or restarted controller) is not read',
      corrupt: (sim) => {
        const slot = slotOf(sim);
        slot.ownerSet = new Map();
        slot.ownerIndex = {};
      },
      error: null,
    },
  ];
  for (const t of corruptions)
    it(`${t.name}: ${t.error ? 'throws' : 'no error'}`, () => {
      const sim = createSimulation(loadScenario(file, nodeFs()), { checks: { podSlots: true } });
      steps(2)(sim);
      t.corrupt(sim);
      const go = () => {
        // every pod's slot is read again: each pod updated through the host, as MarkPodsNotReady does
        for (const [key, pod] of sim.cluster.pods) sim.host.updatePod(pod, key, sim.host.podSlot(key));
      };
      if (t.error) assert.throws(go, t.error);
      else go();
    });
});
