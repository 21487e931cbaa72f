/**
 * The checking modes of a restore (SimulationOptions.checks: index, facts, podOrder): what the
 * restore put back by its fast paths, against the slow path made from every log, throwing on a difference.
 */
import type { PodRecord } from '../model/types';
import { PodMap, inOrder } from '../model/podOrder';
import type { Facts } from './facts';
import { indexPod } from './podIndex';

/**
 * checks.podOrder: the order a PodMap owes, made good on a copy of the map as the rewind left it
 * (Map.prototype's own iterators do not make it good), equals the one the eager restore makes
 * (inOrder); the live map still owes it.
 */
export function checkPodOrder(pods: PodMap<PodRecord>, order: readonly string[]): void {
  const lazy = new PodMap<PodRecord>(Map.prototype.entries.call(pods));
  lazy.owe(order);
  const eager = inOrder(new Map(Map.prototype.entries.call(pods)), order);
  if ([...lazy.keys()].join() !== [...eager.keys()].join()) throw new Error("checkpoint: the pod map's owed order made good differs from the eager one");
}

/** checks.facts: the facts put back equal the ones made from every log, the objects' order and each list's order included. */
export function sameFacts(got: Facts, want: Facts): boolean {
  return JSON.stringify([...got]) === JSON.stringify([...want]);
}

/** checks.index: the index put back equals the one replayed from the snapshot through every log, order included. */
export function checkIndex(
  got: { byNode: Map<string, Set<string>>; podNode: Map<string, string> },
  want: { byNode: Map<string, Set<string>>; podNode: Map<string, string> },
): void {
  const text = (m: Map<string, Set<string>>) => JSON.stringify([...m].map(([n, keys]) => [n, [...keys]]));
  if (text(got.byNode) !== text(want.byNode)) throw new Error('checkpoint: podsByNode put back differs from the one replayed from the snapshot');
  const pairs = (m: Map<string, string>) => JSON.stringify([...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  if (pairs(got.podNode) !== pairs(want.podNode)) throw new Error("checkpoint: the pods' nodes put back differ from the ones replayed from the snapshot");
}

/**
 * podsByNode at the last of `chain`, each node's pods in their order then:
 * the index the host builds from the snapshot's pods, through every change logged up to it
 * (the slow path, which checks.index compares with indexAt).
 */
export function podsByNodeAt(
  base: Map<string, PodRecord>,
  chain: readonly { indexLog: readonly (string | undefined)[] }[],
): { byNode: Map<string, Set<string>>; podNode: Map<string, string> } {
  const byNode = new Map<string, Set<string>>();
  const podNode = new Map<string, string>();
  for (const [key, pod] of base) indexPod(byNode, podNode, key, pod.nodeName);
  for (const c of chain) for (let i = 0; i < c.indexLog.length; i += 2) indexPod(byNode, podNode, c.indexLog[i]!, c.indexLog[i + 1]);
  return { byNode, podNode };
}
