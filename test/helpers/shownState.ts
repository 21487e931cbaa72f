/**
 * What a session's shown position is made of, as text: a fresh simulation's at the same position has the same
 * (swapAtOpen.test, resetStart.test). Maps and sets as their entries, functions left out.
 */
import type { Session } from '../../src/extension/session';

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
