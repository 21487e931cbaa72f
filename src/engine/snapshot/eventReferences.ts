/**
 * The objects a scenario's events name, checked against those the snapshot holds or an earlier event creates.
 * An event told wrong for another reason (a bad value, a bad at:) is checked too, against everything any event
 * creates: its misspelt node is told with the rest, not only once the other mistake is fixed.
 */
import { namesStartingWith } from '../config/suggest';
import { compileSelector, formatSelector } from '../model/labels';
import type { KObject, LabelSelector } from '../model/types';
import { zoneKeyOfLabels, zoneLabelsOf } from '../model/zones';
import { knownObjects } from './knownObjects';
import { suggest, suggestZone, type ScenarioReader } from './scenarioReader';
import type { LoadedSnapshot, ScenarioEvent } from './types';

/** What one event names and creates; `event` is absent when the event was told wrong. */
export interface EventRefs {
  refs: { ref: string; node: unknown; what: string }[];
  nodes: { name: string; node: unknown }[];
  zone?: { zone: string; node: unknown };
  selector?: { selector: LabelSelector; node: unknown };
  creates?: string[];
  event?: ScenarioEvent;
}

/** Reports each reference to an object that is not there when the event comes; returns every object known by the end. */
export function checkEventReferences(reader: ScenarioReader, snap: LoadedSnapshot, sorted: readonly EventRefs[], heldBack: readonly EventRefs[]): Set<string> {
  const known = knownObjects(snap);
  let nodeNames: string[] | undefined;
  const zones = new Set<string>();
  const nodeLabels: Record<string, string>[] = [];
  for (const n of snap.cluster.nodes.values()) {
    zones.add(zoneLabelsOf(n.meta.labels).zone);
    nodeLabels.push(n.meta.labels);
  }
  const check = !reader.snapshotUnread;
  const checkOne = (p: EventRefs) => {
    for (const n of check ? p.nodes : []) {
      if (!known.has(`Node/${n.name}`))
        reader.report(
          'unknown-node',
          'error',
          `no node ${JSON.stringify(n.name)} in the snapshot (nor created by an earlier apply)${suggest(n.name, (nodeNames ??= [...snap.cluster.nodes.keys()]))}`,
          n.node,
        );
    }
    for (const r of check ? p.refs : []) {
      if (!known.has(r.ref)) {
        const names = namesStartingWith(known, r.ref.slice(0, r.ref.indexOf('/') + 1));
        reader.report(`unknown-${r.what}`, 'error', `no ${r.ref} in the snapshot (nor created by an earlier apply)${suggest(r.ref, names)}`, r.node);
      }
    }
    if (check && p.selector) {
      const compiled = compileSelector(p.selector.selector);
      if (!compiled.error && !nodeLabels.some((l) => compiled.matches(l))) {
        reader.report(
          'selector-matches-nothing',
          'warning',
          `no node in the snapshot (nor created by an earlier apply) matches this selector (${formatSelector(p.selector.selector)})`,
          p.selector.node,
        );
      }
    }
    if (check && p.zone && !zones.has(p.zone.zone)) {
      reader.report(
        'unknown-zone',
        'warning',
        `no node in the snapshot is in zone ${JSON.stringify(p.zone.zone)}${suggestZone(p.zone.zone, zones)}`,
        p.zone.node,
      );
    }
  };
  // what a wrong event would create is taken as there: its own mistake is told, not one per event naming its object
  for (const p of heldBack) for (const c of p.creates ?? []) known.add(c);
  for (const p of sorted) {
    checkOne(p);
    for (const c of p.creates ?? []) {
      known.add(c);
      if (c.startsWith('Node/')) {
        const obj = (p.event as { object?: KObject } | undefined)?.object;
        const labels = (obj?.metadata as KObject | undefined)?.labels as Record<string, string> | undefined;
        zones.add(zoneLabelsOf(labels).zone);
        known.add(`Zone/${zoneKeyOfLabels(labels)}`);
        nodeLabels.push(labels ?? {});
      }
    }
  }
  for (const p of heldBack) checkOne(p);
  return known;
}
