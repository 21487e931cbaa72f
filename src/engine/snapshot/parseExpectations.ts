/**
 * A scenario's `expect:` (spec 1.2): what should hold at a time, read into
 * Expectations with their positions. The checks themselves run in
 * simulation/expectations.ts.
 */
import { CONDITION_TAINTS, TAINT_UNSCHEDULABLE } from '../controllers/nodeLifecycle/taints';
import { isMap, isScalar, isSeq } from 'yaml';
import { namesStartingWith } from '../config/suggest';
import type { Micros } from '../model/time';
import { ACTIONS } from '../trace/decision';
import { parseNsName, parseTaintText, quoteList, strip, suggest, suggestZone, type ScenarioReader } from './scenarioReader';
import type { Expectation } from './types';
import { zonesWithLabel } from '../model/zones';

export const EXPECT_TARGETS = ['node', 'pod', 'zone', 'replicaSet'] as const;
export const EXPECT_ASSERTIONS = [
  'hasTaint',
  'lacksTaint',
  'deleted',
  'exists',
  'ready',
  'state',
  'replicas',
  'readyReplicas',
  'availableReplicas',
  'boundTo',
  'decision',
] as const;
/** Every action a decision can have (the trace's table), for `decision: {action}` in expect:. */
const ALL_ACTIONS: readonly string[] = [...new Set(Object.values(ACTIONS).flat())];
/** What `decision: {object}` may name: the trace's object refs (spec 2.1). */
const DECISION_OBJECT = /^(Node\/[^/]+|(Pod|ReplicaSet|DaemonSet)\/[^/]+\/[^/]+|Lease\/([^/]+\/)?[^/]+|Zone\/.*|ControllerManager\/[^/]+)$/;
const ZONE_STATES = ['Initial', 'Normal', 'PartialDisruption', 'FullDisruption'];

/**
 * An expectation about an object that neither the snapshot nor an event
 * creates: a warning (the run reports it as a failure, since a ReplicaSet
 * may still create a pod under a name no file holds). Pods whose name
 * starts with a known ReplicaSet's name and a dash are left alone.
 */
function unknownTarget(reader: ScenarioReader, k: 'node' | 'pod' | 'replicaSet', name: string, known: ReadonlySet<string>, node: unknown, where: string): void {
  const kind = k === 'node' ? 'Node' : k === 'pod' ? 'Pod' : 'ReplicaSet';
  const ref = `${kind}/${strip(`${kind}/`, name)}`;
  if (known.has(ref) || reader.snapshotUnread) return;
  if (kind === 'Pod') {
    const [ns, pod] = ref.slice('Pod/'.length).split('/');
    for (const r of known) if (r.startsWith(`ReplicaSet/${ns}/`) && pod.startsWith(`${r.slice(`ReplicaSet/${ns}/`.length)}-`)) return;
  }
  const names = namesStartingWith(known, `${kind}/`);
  reader.report(
    `unknown-${kind.toLowerCase()}`,
    'warning',
    `${where}: no ${ref} in the snapshot, nor created by an event; the expectation will fail${kind === 'Pod' ? ' unless a controller creates it' : ''}${suggest(ref, names)}`,
    node,
  );
}

/**
 * The zone an expectation names, as its key (`REGION/ZONE` when the nodes have a region label). An event's `zone:`
 * is the zone label's value, so an expectation written the same way (`zone: us-east-1b` beside an event's) names
 * the one zone with that label; a zone no node of the snapshot or of an event is in can only fail ("no such zone").
 */
function zoneNamed(reader: ScenarioReader, zone: string, known: ReadonlySet<string>, node: unknown, where: string): string {
  const given = strip('Zone/', zone);
  if (known.has(`Zone/${given}`) || reader.snapshotUnread) return zone;
  const keys = [...known].filter((r) => r.startsWith('Zone/')).map((r) => r.slice('Zone/'.length));
  const byLabel = zonesWithLabel(given, keys);
  if (byLabel.length === 1) return zone.startsWith('Zone/') ? `Zone/${byLabel[0]}` : byLabel[0];
  const why = byLabel.length
    ? `: zones of ${byLabel.length} regions have that zone label (${quoteList(byLabel)}); write REGION/ZONE`
    : `; the expectation will fail${suggestZone(zone, keys)}`;
  reader.report('unknown-zone', 'warning', `${where}: no node in the snapshot, nor one an event creates, is in zone ${JSON.stringify(zone)}${why}`, node);
  return zone;
}

/** The `expect:` list, sorted by time (stable: file order within one instant); `known`: what parseEvents found. */
export function parseExpectations(reader: ScenarioReader, node: unknown, start: Micros | undefined, known: ReadonlySet<string>): Expectation[] {
  if (!isSeq(node)) {
    reader.report('wrong-type', 'error', `expected expect as a list, found ${reader.describe(node)}`, node);
    return [];
  }
  const out: { e: Expectation; t: number }[] = [];
  node.items.forEach((item, index) => {
    const where = `expectation ${index + 1}`;
    if (!isMap(item)) {
      reader.report('wrong-type', 'error', `${where}: expected a mapping, found ${reader.describe(item)}`, item);
      return;
    }
    const keys = ['at', 'description', ...EXPECT_TARGETS, ...EXPECT_ASSERTIONS];
    const p = reader.pairs(item, keys, where);
    if (!p.has('at')) {
      reader.report('missing-field', 'error', `${where}: needs at:`, item);
      return;
    }
    // a bad at: the rest is still read, so that every mistake in the expectation is told at once
    const at = reader.at(p.get('at')!.value, where);
    const position = reader.pos(item);
    const e: Expectation = { at: at ?? { offset: 0 }, index, ...(position ? { position } : {}) };
    let ok = at !== undefined;
    const targets = EXPECT_TARGETS.filter((k) => p.has(k));
    if (targets.length > 1) {
      reader.report('ambiguous-target', 'error', `${where}: give only one of ${quoteList(EXPECT_TARGETS)}`, p.get(targets[1])!.key);
      ok = false;
    }
    for (const k of targets) {
      const vn = p.get(k)!.value;
      const s = k === 'zone' && isScalar(vn) && typeof vn.value === 'number' ? String(vn.value) : reader.string(vn, k);
      if (s === undefined) {
        ok = false;
        continue;
      }
      if ((k === 'pod' || k === 'replicaSet') && !parseNsName(s)) {
        reader.report('bad-reference', 'error', `${where}: expected ${k}: namespace/name, found ${JSON.stringify(s)}`, vn);
        ok = false;
        continue;
      }
      e[k] = k === 'pod' || k === 'replicaSet' ? parseNsName(s)! : k === 'zone' ? zoneNamed(reader, s, known, vn, where) : s;
      if (k !== 'zone') unknownTarget(reader, k, e[k]!, known, vn, where);
    }
    const assertions = EXPECT_ASSERTIONS.filter((k) => p.has(k));
    if (!assertions.length) {
      reader.report('missing-field', 'error', `${where}: checks nothing: add one of ${quoteList(EXPECT_ASSERTIONS)}`, item);
      return;
    }
    if (!targets.length && !(assertions.length === 1 && assertions[0] === 'decision')) {
      reader.report('missing-target', 'error', `${where}: which object? add one of ${quoteList(EXPECT_TARGETS)}`, item);
      ok = false;
    }
    for (const k of assertions) {
      const vn = p.get(k)!.value;
      switch (k) {
        case 'hasTaint':
        case 'lacksTaint': {
          const s = reader.string(vn, k);
          if (s === undefined) {
            ok = false;
            break;
          }
          if (s.includes(':')) {
            const t = parseTaintText(s);
            if ('error' in t) {
              reader.report('bad-taint', 'error', `${where}: ${k}: ${t.error}`, vn);
              ok = false;
              break;
            }
          }
          const bare = controllersKeyFor(s);
          if (bare)
            reader.report(
              'bare-taint-key',
              'warning',
              `${where}: ${k}: no controller sets a taint with the key "${bare.key}" (did you mean ${bare.meant}?)`,
              vn,
            );
          e[k] = s;
          break;
        }
        case 'deleted':
        case 'exists': {
          const b = reader.boolean(vn, k);
          if (b === undefined) ok = false;
          else e[k] = b;
          break;
        }
        case 'ready': {
          const s = reader.conditionStatus(vn, 'ready');
          if (s === undefined) ok = false;
          else e.ready = s;
          break;
        }
        case 'state': {
          const s = reader.enumValue(vn, ZONE_STATES, 'state');
          if (s === undefined) ok = false;
          else e.state = s;
          break;
        }
        case 'replicas':
        case 'readyReplicas':
        case 'availableReplicas': {
          const n = reader.integer(vn, k, 0);
          if (n === undefined) ok = false;
          else e[k] = n;
          break;
        }
        case 'boundTo': {
          const s = reader.string(vn, k);
          if (s === undefined) ok = false;
          else {
            e.boundTo = s;
            unknownTarget(reader, 'node', s, known, vn, where);
          }
          break;
        }
        case 'decision': {
          if (!isMap(vn)) {
            reader.report(
              'wrong-type',
              'error',
              `${where}: expected decision as {action: TaintAdded, object: Node/NAME, count: N}, found ${reader.describe(vn)}`,
              vn,
            );
            ok = false;
            break;
          }
          const d = reader.pairs(vn, ['action', 'object', 'count'], `${where}: decision`);
          if (!d.has('action')) {
            reader.report('missing-field', 'error', `${where}: decision needs action:`, vn);
            ok = false;
            break;
          }
          const actionNode = d.get('action')!.value;
          let action = reader.string(actionNode, 'action');
          // a misspelt action never matches: with count: 0 the check would pass whatever happened
          if (action !== undefined && !ALL_ACTIONS.includes(action)) {
            reader.report(
              'bad-value',
              'error',
              `${where}: decision: no decision has action ${JSON.stringify(action)}${suggest(action, ALL_ACTIONS)}`,
              actionNode,
            );
            action = undefined;
          }
          const dec: { action: string; object?: string; count?: number } = { action: action ?? '' };
          if (d.has('object')) {
            const objectNode = d.get('object')!.value;
            const o = reader.string(objectNode, 'object');
            if (o !== undefined && !DECISION_OBJECT.test(o)) {
              reader.report(
                'bad-reference',
                'error',
                `${where}: decision: expected object as Node/NAME, Pod/NAMESPACE/NAME, ReplicaSet/NAMESPACE/NAME or Zone/KEY, found ${JSON.stringify(o)}`,
                objectNode,
              );
              ok = false;
            } else if (o !== undefined) {
              const kind = o.slice(0, o.indexOf('/'));
              // a zone as the trace names it, or by its zone label as a zone: target may be
              dec.object = kind === 'Zone' ? zoneNamed(reader, o, known, objectNode, where) : o;
              if (kind === 'Node' || kind === 'Pod' || kind === 'ReplicaSet')
                unknownTarget(reader, kind === 'Node' ? 'node' : kind === 'Pod' ? 'pod' : 'replicaSet', o.slice(kind.length + 1), known, objectNode, where);
            } else ok = false;
          }
          if (d.has('count')) {
            const c = reader.integer(d.get('count')!.value, 'count', 0);
            if (c !== undefined) dec.count = c;
            else ok = false;
          }
          if (action === undefined) ok = false;
          e.decision = dec;
          break;
        }
      }
    }
    if (ok && at) out.push({ e, t: 'offset' in at ? (start ?? 0) + at.offset : at.time });
  });
  return out
    .map((x, i) => ({ ...x, i }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map((x) => x.e);
}

/** The controllers' taint keys are prefixed (node.kubernetes.io/unreachable): a key written without it is that key meant. */
const CONTROLLER_TAINT_KEYS = [TAINT_UNSCHEDULABLE, ...CONDITION_TAINTS.map((r) => r.key)];

/** `unreachable:NoExecute`: its key, and `node.kubernetes.io/unreachable:NoExecute`; undefined when the key has a prefix or is no controller's. */
function controllersKeyFor(text: string): { key: string; meant: string } | undefined {
  const key = text.split(/[=:]/)[0];
  if (key.includes('/')) return undefined;
  const full = CONTROLLER_TAINT_KEYS.find((k) => k.slice(k.indexOf('/') + 1).toLowerCase() === key.toLowerCase());
  return full === undefined ? undefined : { key, meant: full + text.slice(key.length) };
}
