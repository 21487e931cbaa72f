/**
 * What a session's shown position is made of, as text: a fresh simulation's at the same position has the same
 * (swapAtOpen.test, resetStart.test). Maps and sets as their entries, functions left out.
 */
import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Session } from '../../src/extension/session';
import { openScenario } from '../../src/extension/openScenario';
import { writeZoneOutage } from './generatedOutage';

/**
 * The scenarios the start's tests open (two examples and a generated 60-node outage of 7 pods a node, whose making and
 * pass take several pieces), each loaded once: a scenario is never edited, every simulation copies its records.
 */
export function startScenarios(prefix: string): { files: string[]; load: (file: string) => ReturnType<typeof openScenario> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const example = (name: string) => resolve(__dirname, '../../examples', name);
  const files = [example('rs-zone-outage.yaml'), example('outage-1.12.yaml'), writeZoneOutage(dir, 7, { nodes: 60 })];
  const loaded = new Map<string, ReturnType<typeof openScenario>>();
  return { files, load: (file) => loaded.get(file) ?? loaded.set(file, openScenario(file, '')).get(file)! };
}

const plain = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'function' ? undefined : x instanceof Map || x instanceof Set ? [...x] : x));

export function shownState(s: Session): string {
  const sim = s.sim;
  const c = sim.cluster!;
  const node = [...c.nodes.keys()][1];
  const pod = [...c.pods.values()].find((p) => p.nodeName === node) ?? [...c.pods.values()][0];
  const podRef = `Pod/${pod.meta.namespace}/${pod.meta.name}`;
  return plain({
    pass: sim.pass,
    now: sim.now,
    partDone: sim.partDone,
    trace: sim.trace,
    problems: sim.problems,
    records: [c.nodes, c.pods, c.replicaSets, c.daemonSets, c.leases, c.podsByNode],
    why: [sim.explain(`Node/${node}`), sim.explain(podRef)],
    machines: [s.machineFor(`node/${node}`), s.machineFor(podRef)],
    zones: sim.zones(() => true),
  });
}
