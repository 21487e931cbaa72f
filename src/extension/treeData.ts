/**
 * What the tree views (trees.ts) show, from the session: the zones and their nodes, a node's pods, the run by pass.
 * Read from what is shown (the kept views, the shown position), so that a tree visible at the open does not make the
 * start's simulation at once while it is made in idle slices (swapAtOpen.ts): 0.5 s at 5,000 nodes on the refresh.
 */
import { naturalCompare, type Decision } from '../engine';
import type { ZoneView } from '../engine/trace/views';
import type { NodeItem, PodItem } from '../protocol/webview';
import type { Session } from './session';

/** The tree shows no queued names: the engine is asked for none (a zone down at 5,000 nodes queues 1,667). */
const noNames = (): boolean => false;

/** The zones, those of the zone controller and those the nodes name, in natural order. */
export function zonesOf(s: Session): string[] {
  const zones = new Set<string>(s.zones(noNames).map((z) => z.zone));
  for (const n of s.nodeItems.values()) zones.add(n.zone);
  return [...zones].sort(naturalCompare);
}

/** A zone's state, counts and rate. */
export function zoneOf(s: Session, zone: string): ZoneView | undefined {
  return s.zones(noNames).find((z) => z.zone === zone);
}

/** A zone's nodes in natural order (the pods' items that wait are not made: Session.nodeItems). */
export function nodesIn(s: Session, zone: string): NodeItem[] {
  return [...s.nodeItems.values()].filter((n) => n.zone === zone).sort((a, b) => naturalCompare(a.name, b.name));
}

/**
 * A node's pods in natural order: only that node's items are brought up to date. This one reads the shown records:
 * while the start is made (swapAtOpen.ts) the tree waits for the making (Session.started), in slices.
 */
export function podsOf(s: Session, node: string): PodItem[] | Promise<PodItem[]> {
  const pods = () => s.podsOn(node).sort((a, b) => naturalCompare(a.ref, b.ref));
  return s.shownPending ? s.started().then((stands) => (stands ? pods() : [])) : pods();
}

/** The passes of the whole run (not only up to the current position), latest first, with their decision counts. */
export function passesOf(s: Session, includeNoise: boolean): { pass: number; count: number }[] {
  return [...s.runByPass(includeNoise)].sort((a, b) => b[0] - a[0]).map(([pass, ds]) => ({ pass, count: ds.length }));
}

/** The decisions shown in a pass of the whole run. */
export function decisionsIn(s: Session, pass: number, includeNoise: boolean): Decision[] {
  return s.runByPass(includeNoise).get(pass) ?? [];
}

/** Whether the session stands on this pass. */
export function isCurrentPass(s: Session, pass: number): boolean {
  return s.shown.pass === pass;
}
