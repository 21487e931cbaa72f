/**
 * A scenario's `events:` (spec 1.2): the timeline of world events, each read
 * into a ScenarioEvent with its position, and checked against the objects the
 * snapshot holds or an earlier event creates.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import { isEngineKind, POD_PHASES, TAINT_EFFECTS, toLabelSelector, toRecord, toTaint } from '../model/convert';
import { parseObjectRef, type ParsedObjectRef } from '../model/objectRef';
import type { Micros } from '../model/time';
import { NODE_LEASE_NAMESPACE, type KObject, type LabelSelector, type Taint, type TaintEffect } from '../model/types';
import { checkEventReferences, type EventRefs } from './eventReferences';
import { knownObjects } from './knownObjects';
import {
  deepestNode,
  formatAt,
  nodePath,
  parseNsName,
  parseTaintText,
  quoteList,
  suggest,
  suggestPrefix,
  targetsBeside,
  type ScenarioReader,
} from './scenarioReader';
import type { LoadedSnapshot, NodeTarget, ScenarioEvent, TimeSpec } from './types';

export const EVENT_KINDS = [
  'kubelet',
  'condition',
  'taint',
  'untaint',
  'apply',
  'patch',
  'delete',
  'pod',
  'scale',
  'fail',
  'restartControllerManager',
] as const;
type EventKindKey = (typeof EVENT_KINDS)[number];
const TARGET_KEYS = ['nodes', 'node', 'zone', 'selector'] as const;
const EVENT_EXTRA_KEYS: Record<EventKindKey, readonly string[]> = {
  kubelet: ['only', 'conditions', ...TARGET_KEYS],
  condition: TARGET_KEYS,
  taint: TARGET_KEYS,
  untaint: TARGET_KEYS,
  apply: [],
  patch: [],
  delete: [],
  pod: ['phase', 'ready'],
  scale: [],
  fail: [],
  restartControllerManager: [],
};
const FAIL_VERBS = ['create', 'delete', 'update', 'patch'] as const;
const FAIL_RESOURCES = ['pods', 'nodes', 'replicasets'] as const;

/**
 * The `events:` list, sorted by time (stable: file order within one instant), and every object (and node's
 * `Zone/KEY`) the snapshot holds or an event creates, for the expectations to check their targets against.
 */
export function parseEvents(
  reader: ScenarioReader,
  node: unknown,
  snap: LoadedSnapshot,
  start: Micros | undefined,
): { events: ScenarioEvent[]; known: Set<string> } {
  if (!isSeq(node)) {
    reader.report('wrong-type', 'error', `expected events as a list, found ${reader.describe(node)}`, node);
    return { events: [], known: knownObjects(snap) };
  }
  const parsed: (EventRefs & { event: ScenarioEvent; node: unknown })[] = [];
  // events told wrong still name objects: a misspelt node in one is told with its bad value, not after it is fixed
  const heldBack: EventRefs[] = [];
  node.items.forEach((item, index) => {
    const r = readEvent(reader, item, index, heldBack);
    if (r) parsed.push(r);
  });
  const abs = (t: TimeSpec) => ('offset' in t ? (start ?? 0) + t.offset : t.time);
  // Out-of-order events: warn, then sort stably by time.
  let latest: Micros | undefined;
  let latestIndex = 0;
  let latestAt: TimeSpec | undefined;
  for (const p of parsed) {
    const t = abs(p.event.at);
    if (start !== undefined && 'time' in p.event.at && p.event.at.time < start) {
      reader.report(
        'event-before-start',
        'warning',
        `event ${p.event.index + 1} is at ${formatAt(p.event.at)}, before startTime (${formatAt({ time: start })}), when the simulation has not begun`,
        (p.node as YAMLMap).items.find((x) => isScalar(x.key) && x.key.value === 'at')?.value ?? p.node,
      );
    }
    if (latest !== undefined && t < latest) {
      reader.report(
        'events-out-of-order',
        'warning',
        `event ${p.event.index + 1} (at ${formatAt(p.event.at)}) comes after event ${latestIndex + 1} (at ${latestAt ? formatAt(latestAt) : 'a later time'}) in the file; events are applied sorted by time, in file order within one instant`,
        p.node,
      );
    } else {
      latest = t;
      latestIndex = p.event.index;
      latestAt = p.event.at;
    }
  }
  const sorted = parsed
    .map((p, i) => ({ p, i, t: abs(p.event.at) }))
    .sort((a, b) => a.t - b.t || a.i - b.i)
    .map((x) => x.p);
  const known = checkEventReferences(reader, snap, sorted, heldBack);
  return { events: sorted.map((p) => p.event), known };
}

function readEvent(reader: ScenarioReader, item: unknown, index: number, heldBack: EventRefs[]) {
  const where = `event ${index + 1}`;
  if (!isMap(item)) {
    reader.report('wrong-type', 'error', `${where}: expected a mapping with at: and one of ${quoteList(EVENT_KINDS)}, found ${reader.describe(item)}`, item);
    return undefined;
  }
  const all = reader.pairs(item, undefined, where);
  const kinds = EVENT_KINDS.filter((k) => all.has(k));
  if (kinds.length === 0) {
    const unknown = [...all.keys()].filter((k) => k !== 'at' && k !== 'description');
    // a kind run together with what it does (kubeletStops, deletePod) is too far from any kind for a typo
    const hint = unknown.length ? suggest(unknown[0], EVENT_KINDS) || suggestPrefix(unknown[0], EVENT_KINDS) : '';
    reader.report(
      'missing-event-kind',
      'error',
      `${where}: says nothing happens${unknown.length ? ` (unknown field ${JSON.stringify(unknown[0])})` : ''}: expected one of ${quoteList(EVENT_KINDS)}${hint}`,
      unknown.length ? all.get(unknown[0])!.key : item,
    );
    return undefined;
  }
  if (kinds.length > 1) {
    reader.report('ambiguous-event', 'error', `${where}: has both ${kinds[0]} and ${kinds[1]}; write one event for each`, all.get(kinds[1])!.key);
    return undefined;
  }
  const kind = kinds[0];
  const allowed = ['at', 'description', kind, ...EVENT_EXTRA_KEYS[kind]];
  for (const [key, pair] of all) {
    if (!allowed.includes(key)) {
      const everything = ['at', 'description', ...EVENT_KINDS, ...TARGET_KEYS, 'only', 'conditions', 'phase', 'ready'];
      const known = everything.includes(key);
      reader.report(
        'unknown-field',
        'error',
        known
          ? `${where}: ${key} does not go with ${kind}`
          : `${where}: unknown field ${JSON.stringify(key)}${suggest(key, allowed)}; a ${kind} event takes ${quoteList(allowed)}`,
        pair.key,
      );
    }
  }
  const atPair = all.get('at');
  if (!atPair) {
    reader.report('missing-field', 'error', `${where}: needs at: (an offset such as 30s, or an RFC3339 time)`, item.items[0]?.key ?? item);
    return undefined;
  }
  // a bad at: the rest of the event is still read, so that every mistake in it is told at once; nothing is returned (done)
  const at = reader.at(atPair.value, where);
  const v = all.get(kind)!.value;
  const position = reader.pos(item);
  const base = { at: at ?? { offset: 0 }, index, ...(position ? { position } : {}) };
  const refs: { ref: string; node: unknown; what: string }[] = [];
  const nodes: { name: string; node: unknown }[] = [];
  let zone: { zone: string; node: unknown } | undefined;
  let selector: { selector: LabelSelector; node: unknown } | undefined;
  const creates: string[] = [];
  const targetOf = (): NodeTarget | undefined => {
    const present = TARGET_KEYS.filter((k) => all.has(k));
    if (present.length === 0) {
      reader.report(
        'missing-target',
        'error',
        `${where}: which nodes? add nodes: [...], node: NAME, zone: ZONE or selector: {matchLabels: ...}`,
        all.get(kind)!.key,
      );
      return undefined;
    }
    if (present.length > 1) {
      reader.report(
        'ambiguous-target',
        'error',
        `${where}: give only one of nodes, node, zone, selector (found ${present.join(' and ')})`,
        all.get(present[1])!.key,
      );
      return undefined;
    }
    const t = present[0];
    const tv = all.get(t)!.value;
    if (t === 'node') {
      const n = reader.string(tv, 'node');
      if (n === undefined) return undefined;
      nodes.push({ name: n, node: tv });
      return { nodes: [n] };
    }
    if (t === 'nodes') {
      if (!isSeq(tv)) {
        const one = isScalar(tv) && typeof tv.value === 'string' ? `; for one node write nodes: [${tv.value}] or node: ${tv.value}` : '';
        reader.report('wrong-type', 'error', `${where}: expected nodes as a list of node names, found ${reader.describe(tv)}${one}`, tv);
        return undefined;
      }
      const names: string[] = [];
      for (const n of tv.items) {
        const s = reader.string(n, 'a node name');
        if (s !== undefined) {
          names.push(s);
          nodes.push({ name: s, node: n });
        }
      }
      if (!names.length) {
        reader.report('missing-target', 'error', `${where}: nodes: is empty`, tv);
        return undefined;
      }
      return { nodes: names };
    }
    if (t === 'zone') {
      const z = isScalar(tv) && (typeof tv.value === 'number' || typeof tv.value === 'string') ? String(tv.value) : reader.string(tv, 'zone');
      if (z === undefined) return undefined;
      zone = { zone: z, node: tv };
      return { zone: z };
    }
    const sel = readSelector(reader, tv, where);
    if (sel) selector = { selector: sel, node: tv };
    return sel ? { selector: sel } : undefined;
  };
  const done = (event: ScenarioEvent) => (at === undefined ? undefined : { event, node: item, refs, nodes, zone, selector, creates });

  const read = () => {
    switch (kind) {
      case 'kubelet': {
        const action = reader.enumValue(v, ['start', 'stop'] as const, `${where}: kubelet`);
        const target = targetOf();
        let only: 'status' | 'lease' | undefined;
        if (all.has('only')) {
          only = reader.enumValue(all.get('only')!.value, ['status', 'lease'] as const, `${where}: only`);
          if (only === undefined) return undefined;
        }
        let conditions: Record<string, string> | undefined;
        if (all.has('conditions')) {
          const cv = all.get('conditions')!.value;
          if (!isMap(cv)) {
            reader.report('wrong-type', 'error', `${where}: expected conditions as a mapping such as {Ready: "False"}, found ${reader.describe(cv)}`, cv);
            return undefined;
          }
          conditions = {};
          for (const [type, cp] of reader.pairs(cv, undefined, `${where}: conditions`)) {
            const s = reader.conditionStatus(cp.value, `condition ${type}`);
            if (s === undefined) return undefined;
            conditions[type] = s;
          }
          if (action === 'stop')
            reader.report('unused-field', 'warning', `${where}: conditions: only matter when a kubelet starts`, all.get('conditions')!.key);
        }
        if (!action || !target) return undefined;
        const e: ScenarioEvent = { ...base, kind: 'kubelet', action, target };
        if (only) e.only = only;
        if (conditions) e.conditions = conditions;
        return done(e);
      }
      case 'condition': {
        const target = targetOf();
        if (!isMap(v)) {
          reader.report(
            'wrong-type',
            'error',
            `${where}: expected condition as a mapping such as {type: Ready, status: "False"}, found ${reader.describe(v)}`,
            v,
          );
          return undefined;
        }
        const c = reader.pairs(v, ['type', 'status', 'reason', 'message'], `${where}: condition`, targetsBeside('condition'));
        if (!c.has('type') || !c.has('status')) {
          reader.report('missing-field', 'error', `${where}: a condition needs type and status`, v);
          return undefined;
        }
        const type = reader.string(c.get('type')!.value, 'condition type');
        const status = reader.conditionStatus(c.get('status')!.value, 'condition status');
        const reason = c.has('reason') ? reader.string(c.get('reason')!.value, 'reason') : undefined;
        const message = c.has('message') ? reader.string(c.get('message')!.value, 'message') : undefined;
        if (!type || !status || !target) return undefined;
        const condition: { type: string; status: string; reason?: string; message?: string } = { type, status };
        if (reason !== undefined) condition.reason = reason;
        if (message !== undefined) condition.message = message;
        return done({ ...base, kind: 'condition', target, condition });
      }
      case 'taint': {
        const target = targetOf();
        const taint = readTaint(reader, v, where, true);
        if (!taint || !target) return undefined;
        return done({ ...base, kind: 'taint', target, taint: taint as Taint });
      }
      case 'untaint': {
        const target = targetOf();
        const taint = readTaint(reader, v, where, false);
        if (!taint || !target) return undefined;
        const t: { key: string; effect?: TaintEffect } = { key: taint.key };
        if (taint.effect) t.effect = taint.effect;
        return done({ ...base, kind: 'untaint', target, taint: t });
      }
      case 'apply': {
        const obj = readAppliedObject(reader, v, where);
        if (!obj) return undefined;
        creates.push(obj.ref);
        return done({ ...base, kind: 'apply', object: obj.object });
      }
      case 'patch': {
        if (!isMap(v)) {
          reader.report('wrong-type', 'error', `${where}: expected patch as {object: Kind/namespace/name, merge: {...}}, found ${reader.describe(v)}`, v);
          return undefined;
        }
        const p = reader.pairs(v, ['object', 'merge'], `${where}: patch`);
        if (!p.has('object') || !p.has('merge')) {
          reader.report('missing-field', 'error', `${where}: a patch needs object: and merge:`, v);
          return undefined;
        }
        const refNode = p.get('object')!.value;
        const ref = readRef(reader, refNode, where);
        const mergeNode = p.get('merge')!.value;
        if (!isMap(mergeNode)) {
          reader.report('wrong-type', 'error', `${where}: expected merge: as a mapping (a JSON merge patch), found ${reader.describe(mergeNode)}`, mergeNode);
          return undefined;
        }
        if (!ref) return undefined;
        refs.push({ ref: ref.ref, node: refNode, what: ref.kind.toLowerCase() });
        return done({ ...base, kind: 'patch', ref: ref.ref, merge: reader.js(mergeNode) as KObject });
      }
      case 'delete': {
        const ref = readRef(reader, v, where);
        if (!ref) return undefined;
        refs.push({ ref: ref.ref, node: v, what: ref.kind.toLowerCase() });
        return done({ ...base, kind: 'delete', ref: ref.ref });
      }
      case 'pod': {
        const s = reader.string(v, 'pod (namespace/name)');
        const key = s === undefined ? undefined : parseNsName(s);
        if (s !== undefined && !key) reader.report('bad-reference', 'error', `${where}: expected pod: namespace/name, found ${JSON.stringify(s)}`, v);
        let phase: string | undefined;
        let ready: boolean | undefined;
        if (all.has('phase')) phase = reader.enumValue(all.get('phase')!.value, POD_PHASES, `${where}: phase`);
        if (all.has('ready')) ready = reader.boolean(all.get('ready')!.value, `${where}: ready`);
        if (!all.has('phase') && !all.has('ready')) {
          reader.report(
            'missing-field',
            'error',
            `${where}: say what happens to the pod: phase: Running|Succeeded|Failed|... or ready: true|false`,
            all.get('pod')!.key,
          );
          return undefined;
        }
        if (!key || (all.has('phase') && !phase) || (all.has('ready') && ready === undefined)) return undefined;
        refs.push({ ref: `Pod/${key}`, node: v, what: 'pod' });
        const e: ScenarioEvent = { ...base, kind: 'pod', pod: key };
        if (phase) e.phase = phase;
        if (ready !== undefined) e.ready = ready;
        return done(e);
      }
      case 'scale': {
        if (!isMap(v)) {
          reader.report('wrong-type', 'error', `${where}: expected scale as {replicaSet: namespace/name, replicas: N}, found ${reader.describe(v)}`, v);
          return undefined;
        }
        const p = reader.pairs(v, ['replicaSet', 'replicas'], `${where}: scale`);
        if (!p.has('replicaSet') || !p.has('replicas')) {
          reader.report('missing-field', 'error', `${where}: scale needs replicaSet: and replicas:`, v);
          return undefined;
        }
        const rsNode = p.get('replicaSet')!.value;
        const s = reader.string(rsNode, 'replicaSet (namespace/name)');
        const key = s === undefined ? undefined : parseNsName(s);
        if (s !== undefined && !key)
          reader.report('bad-reference', 'error', `${where}: expected replicaSet: namespace/name, found ${JSON.stringify(s)}`, rsNode);
        const replicas = reader.integer(p.get('replicas')!.value, 'replicas', 0);
        if (!key || replicas === undefined) return undefined;
        refs.push({ ref: `ReplicaSet/${key}`, node: rsNode, what: 'replicaset' });
        return done({ ...base, kind: 'scale', replicaSet: key, replicas });
      }
      case 'fail': {
        if (!isMap(v)) {
          reader.report(
            'wrong-type',
            'error',
            `${where}: expected fail as {verb: create|delete|update|patch, resource: pods|nodes|replicasets, count: N}, found ${reader.describe(v)}`,
            v,
          );
          return undefined;
        }
        const p = reader.pairs(v, ['verb', 'resource', 'count'], `${where}: fail`);
        if (!p.has('verb') || !p.has('resource')) {
          reader.report('missing-field', 'error', `${where}: fail needs verb: and resource:`, v);
          return undefined;
        }
        const verb = reader.enumValue(p.get('verb')!.value, FAIL_VERBS, 'verb');
        const resource = reader.enumValue(p.get('resource')!.value, FAIL_RESOURCES, 'resource');
        const count = p.has('count') ? reader.integer(p.get('count')!.value, 'count', 1) : 1;
        if (!verb || !resource || count === undefined) return undefined;
        return done({ ...base, kind: 'fail', verb, resource, count });
      }
      case 'restartControllerManager': {
        let failover = false;
        if (isScalar(v) && v.value === true) failover = false;
        else if (isScalar(v) && v.value === false) {
          reader.report('bad-value', 'warning', `${where}: restartControllerManager: false does nothing; the event is ignored`, v);
          return undefined;
        } else if (isMap(v)) {
          const p = reader.pairs(v, ['failover'], `${where}: restartControllerManager`);
          if (p.has('failover')) {
            const b = reader.boolean(p.get('failover')!.value, 'failover');
            if (b === undefined) return undefined;
            failover = b;
          }
        } else {
          reader.report('wrong-type', 'error', `${where}: expected restartControllerManager: true or {failover: true}, found ${reader.describe(v)}`, v);
          return undefined;
        }
        return done({ ...base, kind: 'restartControllerManager', failover });
      }
    }
  };
  const r = read();
  if (!r && (refs.length || nodes.length || zone || selector || creates.length)) heldBack.push({ refs, nodes, zone, selector, creates });
  return r;
}

function readSelector(reader: ScenarioReader, node: unknown, where: string): LabelSelector | undefined {
  if (!isMap(node)) {
    reader.report('wrong-type', 'error', `${where}: expected selector as {matchLabels: {...}, matchExpressions: [...]}, found ${reader.describe(node)}`, node);
    return undefined;
  }
  reader.pairs(node, ['matchLabels', 'matchExpressions'], `${where}: selector`);
  let ok = true;
  const sel = toLabelSelector(reader.js(node), [], (path, code, severity, message) => {
    if (severity === 'error') ok = false;
    reader.report(code, severity, `${where}: selector: ${message}`, reader.doc.getIn([...nodePath(reader.doc, node), ...path], true) ?? node);
  });
  return ok ? sel : undefined;
}

function readTaint(
  reader: ScenarioReader,
  node: unknown,
  where: string,
  needEffect: boolean,
): { key: string; value?: string; effect?: TaintEffect; timeAdded?: number } | undefined {
  if (isScalar(node) && typeof node.value === 'string') {
    const text = node.value;
    if (!needEffect && !text.includes(':')) return { key: text };
    const t = parseTaintText(text);
    if ('error' in t) {
      reader.report('bad-taint', 'error', `${where}: ${t.error}`, node);
      return undefined;
    }
    return t;
  }
  if (!isMap(node)) {
    reader.report(
      'wrong-type',
      'error',
      `${where}: expected a taint as {key: ..., effect: NoExecute} or key[=value]:Effect, found ${reader.describe(node)}`,
      node,
    );
    return undefined;
  }
  const keys = needEffect ? ['key', 'value', 'effect', 'timeAdded'] : ['key', 'effect'];
  const action = needEffect ? 'taint' : 'untaint';
  const p = reader.pairs(node, keys, `${where}: ${action}`, targetsBeside(action));
  if (!needEffect) {
    if (!p.has('key')) {
      reader.report('missing-field', 'error', `${where}: untaint needs the taint's key`, node);
      return undefined;
    }
    const key = reader.string(p.get('key')!.value, 'key');
    let effect: TaintEffect | undefined;
    if (p.has('effect')) {
      effect = reader.enumValue(p.get('effect')!.value, TAINT_EFFECTS, 'effect');
      if (!effect) return undefined;
    }
    if (!key) return undefined;
    return effect ? { key, effect } : { key };
  }
  let ok = true;
  const path = nodePath(reader.doc, node);
  const t = toTaint(reader.js(node), [], (sub, code, severity, message) => {
    if (severity === 'error') ok = false;
    reader.report(code, severity, `${where}: ${message}`, reader.doc.getIn([...path, ...sub], true) ?? node);
  });
  return ok ? t : undefined;
}

function readRef(reader: ScenarioReader, node: unknown, where: string): ParsedObjectRef | undefined {
  const s = reader.string(node, 'an object reference (Kind/namespace/name)');
  if (s === undefined) return undefined;
  const r = parseObjectRef(s);
  if ('error' in r) {
    reader.report('bad-reference', 'error', `${where}: ${r.error}`, node);
    return undefined;
  }
  return r;
}

function readAppliedObject(reader: ScenarioReader, node: unknown, where: string): { object: KObject; ref: string } | undefined {
  if (!isMap(node)) {
    reader.report(
      'wrong-type',
      'error',
      `${where}: expected apply: a Kubernetes object (a mapping with apiVersion, kind, metadata), found ${reader.describe(node)}`,
      node,
    );
    return undefined;
  }
  const object = reader.js(node) as KObject;
  const path = nodePath(reader.doc, node);
  const kind = object.kind;
  if (typeof kind !== 'string' || !kind) {
    reader.report('missing-field', 'error', `${where}: the applied object needs a kind`, node);
    return undefined;
  }
  if (!isEngineKind(kind)) {
    reader.report(
      'ignored-kind',
      'warning',
      `${where}: a ${kind} is not simulated; it is kept but no controller acts on it`,
      (node as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === 'kind')?.value ?? node,
    );
  }
  let ok = true;
  const record = isEngineKind(kind)
    ? toRecord(kind, object, (sub, code, severity, message) => {
        if (severity === 'error') ok = false;
        const target = deepestNode(reader.doc, [...path, ...sub]) ?? node;
        reader.report(code, severity, `${where}: ${message}`, target);
      })
    : undefined;
  if (isEngineKind(kind) && (!record || !ok)) return undefined;
  const md = object.metadata as KObject | undefined;
  const name = record?.meta.name ?? (typeof md?.name === 'string' ? md.name : '');
  const ns = record?.meta.namespace;
  if (kind === 'Lease' && ns !== NODE_LEASE_NAMESPACE)
    reader.report('ignored-lease', 'info', `${where}: a Lease outside ${NODE_LEASE_NAMESPACE} is not a node heartbeat`, node);
  return { object, ref: ns ? `${kind}/${ns}/${name}` : `${kind}/${name}` };
}
