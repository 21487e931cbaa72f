/**
 * The scenario's `expect:` entries (spec 1.2; `controller-stepper test`):
 * the simulation runs to each entry's time (in time order; back to the start
 * first if it is already past the earliest) and checks every field the entry
 * has. A failed check says what was expected and what was found.
 *
 * Fields: `node` with exists/deleted/hasTaint/lacksTaint (`key`, `key:Effect`
 * or `key=value:Effect`)/ready; `pod` with exists/deleted/boundTo/ready;
 * `zone` (`KEY` or `Zone/KEY`) with state/exists; `replicaSet` with the
 * status counts replicas/readyReplicas/availableReplicas and exists/deleted;
 * `decision: {action, object?, count?}`: decisions of that action (on that
 * object) up to the entry's time, exactly `count` of them when given, else at
 * least one.
 *
 * An entry about a node, pod or ReplicaSet that never existed up to its time
 * (not in the snapshot, never applied by an event, never created by a
 * controller) fails and says so, whatever it asserts: `deleted: true` for a
 * misspelt name must not pass. The one exception is `exists: false` alone
 * about an object the scenario can still create (a later `apply`, or a pod
 * named after one of its ReplicaSets): "not yet" is what it asserts.
 */
import type { Expectation, Scenario, TimeSpec } from '../snapshot/types';
import { formatTime, type Micros } from '../model/time';
import { nsKey } from '../model/types';
import type { ObjectRef } from '../model/types';
import type { ExpectationResult } from './api';
import { existsIn } from './explain';
import type { SimHost } from './simHost';
import type { DecisionList } from '../trace/decisionLog';
import type { ZoneView } from '../trace/views';

/**
 * What the checks read of a simulation and how they move it. Narrower than the
 * Simulation so that the simulation can call them without the two importing
 * each other.
 */
export interface Checkable {
  readonly scenario: Pick<Scenario, 'snapshot' | 'events' | 'expect'>;
  readonly host: Pick<SimHost, 'cluster' | 'byObject'>;
  readonly trace: DecisionList;
  readonly now: Micros;
  readonly stopped?: boolean;
  zones(): ZoneView[];
  timeOf(at: TimeSpec): Micros;
  reset(): void;
  runUntil(t: Micros): void;
}

interface Outcome {
  description: string;
  ok: boolean;
  actual?: string;
}

function strip(prefix: string, s: string): string {
  return s.startsWith(prefix) ? s.slice(prefix.length) : s;
}

function taintMatches(spec: string, t: { key: string; effect: string; value?: string }): boolean {
  const i = spec.lastIndexOf(':');
  if (i < 0) return t.key === spec;
  const keyPart = spec.slice(0, i);
  const effect = spec.slice(i + 1);
  // `key=value:Effect` is accepted too
  const eq = keyPart.indexOf('=');
  const key = eq < 0 ? keyPart : keyPart.slice(0, eq);
  if (eq >= 0 && (t.value ?? '') !== keyPart.slice(eq + 1)) return false;
  return t.key === key && t.effect === effect;
}

/** The object the entry is about, as a trace ref (`Pod/ns/name`), when it names one. */
function targetRef(e: Expectation): ObjectRef | undefined {
  if (e.node !== undefined) return `Node/${strip('Node/', e.node)}`;
  const ns = (kind: string, s: string) => {
    const k = strip(`${kind}/`, s);
    return `${kind}/${k.includes('/') ? k : nsKey('default', k)}`;
  };
  if (e.pod !== undefined) return ns('Pod', e.pod);
  if (e.replicaSet !== undefined) return ns('ReplicaSet', e.replicaSet);
  return undefined;
}

/**
 * Whether the object existed at some point up to now: in the snapshot, named
 * by a decision (an apply, a registration, a binding…), or among the pods a
 * ReplicaSet sync created (`PodsCreated` lists them in details.pods).
 */
export function everExisted(sim: Checkable, ref: ObjectRef): boolean {
  if (existsIn(sim.host.cluster, ref) || existsIn(sim.scenario.snapshot.cluster, ref)) return true;
  if (sim.host.byObject.get(ref)?.length) return true;
  if (!ref.startsWith('Pod/')) return false;
  const [, ns, name] = ref.split('/');
  return sim.trace.some(
    (d) =>
      d.action === 'PodsCreated' &&
      d.object.startsWith(`ReplicaSet/${ns}/`) &&
      Array.isArray((d.details as { pods?: unknown } | undefined)?.pods) &&
      (d.details as { pods: unknown[] }).pods.includes(name),
  );
}

/** Whether the scenario may create the object later: an `apply` of it, or (a pod) a name after a ReplicaSet's. */
function mayBeCreated(sim: Checkable, ref: ObjectRef): boolean {
  for (const ev of sim.scenario.events) {
    if (ev.kind !== 'apply') continue;
    const md = (ev.object.metadata ?? {}) as { name?: string; namespace?: string };
    const kind = String(ev.object.kind ?? '');
    if (`${kind}/${kind === 'Node' ? '' : `${md.namespace ?? 'default'}/`}${md.name ?? ''}` === ref) return true;
    if (ref.startsWith('Pod/') && kind === 'ReplicaSet' && ref.startsWith(`Pod/${md.namespace ?? 'default'}/${md.name}-`)) return true;
  }
  if (!ref.startsWith('Pod/')) return false;
  const [, ns, name] = ref.split('/');
  for (const key of sim.scenario.snapshot.cluster.replicaSets.keys()) {
    const [rsNs, rsName] = key.split('/');
    if (rsNs === ns && name.startsWith(`${rsName}-`)) return true;
  }
  return false;
}

/** Checks one expectation against the simulation's present state. */
export function checkOne(sim: Checkable, e: Expectation): Outcome[] {
  const out: Outcome[] = [];
  const target = targetRef(e);
  const onlyNotExists =
    e.exists === false &&
    e.deleted === undefined &&
    e.hasTaint === undefined &&
    e.lacksTaint === undefined &&
    e.ready === undefined &&
    e.boundTo === undefined &&
    e.replicas === undefined &&
    e.readyReplicas === undefined &&
    e.availableReplicas === undefined &&
    e.decision === undefined;
  if (target && !everExisted(sim, target) && !(onlyNotExists && mayBeCreated(sim, target))) {
    return [
      {
        description: `${target} exists or existed`,
        ok: false,
        actual: `${target} never existed: it is not in the snapshot and no event or controller created it (a misspelt name?)`,
      },
    ];
  }
  const c = sim.host.cluster;
  const add = (description: string, ok: boolean, actual: string) => out.push(ok ? { description, ok } : { description, ok, actual });

  if (e.node !== undefined) {
    const name = strip('Node/', e.node);
    const n = c.nodes.get(name);
    const ref = `Node/${name}`;
    if (e.exists !== undefined) add(`${ref} ${e.exists ? 'exists' : 'does not exist'}`, !!n === e.exists, n ? 'it exists' : 'it does not exist');
    if (e.deleted !== undefined) add(`${ref} is ${e.deleted ? '' : 'not '}deleted`, !n === e.deleted, n ? 'it exists' : 'it is deleted');
    const taints = n ? n.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ') || 'no taints' : 'the node does not exist';
    if (e.hasTaint !== undefined) add(`${ref} has taint ${e.hasTaint}`, !!n && n.taints.some((t) => taintMatches(e.hasTaint!, t)), taints);
    if (e.lacksTaint !== undefined) add(`${ref} lacks taint ${e.lacksTaint}`, !!n && !n.taints.some((t) => taintMatches(e.lacksTaint!, t)), taints);
    if (e.ready !== undefined) {
      const r = n?.conditions.find((x) => x.type === 'Ready')?.status;
      add(`${ref} Ready is ${e.ready}`, r === e.ready, n ? `Ready is ${r ?? 'absent'}` : 'the node does not exist');
    }
  }
  if (e.pod !== undefined) {
    const key = strip('Pod/', e.pod);
    const k = key.includes('/') ? key : nsKey('default', key);
    const p = c.pods.get(k);
    const ref = `Pod/${k}`;
    if (e.exists !== undefined) add(`${ref} ${e.exists ? 'exists' : 'does not exist'}`, !!p === e.exists, p ? 'it exists' : 'it does not exist');
    if (e.deleted !== undefined)
      add(`${ref} is ${e.deleted ? '' : 'not '}deleted`, !p === e.deleted, p ? `it exists${p.nodeName ? ` on ${p.nodeName}` : ''}` : 'it is deleted');
    if (e.boundTo !== undefined)
      add(`${ref} is bound to ${e.boundTo}`, p?.nodeName === e.boundTo, p ? `bound to ${p.nodeName ?? 'no node'}` : 'the pod does not exist');
    if (e.ready !== undefined) {
      const r = p?.conditions.find((x) => x.type === 'Ready')?.status;
      add(`${ref} Ready is ${e.ready}`, r === e.ready, p ? `Ready is ${r ?? 'absent'}` : 'the pod does not exist');
    }
  }
  if (e.zone !== undefined) {
    const ref = e.zone.startsWith('Zone/') ? e.zone : `Zone/${e.zone}`;
    const z = sim.zones().find((x) => x.zone === ref);
    if (e.state !== undefined) add(`${ref} is in state ${e.state}`, z?.state === e.state, z ? `state ${z.state}` : 'no such zone');
    if (e.exists !== undefined) add(`${ref} ${e.exists ? 'exists' : 'does not exist'}`, !!z === e.exists, z ? 'it exists' : 'it does not exist');
  }
  if (e.replicaSet !== undefined) {
    const key = strip('ReplicaSet/', e.replicaSet);
    const k = key.includes('/') ? key : nsKey('default', key);
    const rs = c.replicaSets.get(k);
    const ref = `ReplicaSet/${k}`;
    const field = (name: 'replicas' | 'readyReplicas' | 'availableReplicas', want: number | undefined) => {
      if (want === undefined) return;
      const got = rs?.status[name];
      add(`${ref} status.${name} is ${want}`, got === want, rs ? `status.${name} is ${got}` : 'the ReplicaSet does not exist');
    };
    field('replicas', e.replicas);
    field('readyReplicas', e.readyReplicas);
    field('availableReplicas', e.availableReplicas);
    if (e.exists !== undefined) add(`${ref} ${e.exists ? 'exists' : 'does not exist'}`, !!rs === e.exists, rs ? 'it exists' : 'it does not exist');
    if (e.deleted !== undefined) add(`${ref} is ${e.deleted ? '' : 'not '}deleted`, !rs === e.deleted, rs ? 'it exists' : 'it is deleted');
  }
  if (e.decision !== undefined) {
    const { action, object, count } = e.decision;
    const n = sim.trace.filter((d) => d.action === action && (object === undefined || d.object === object)).length;
    const what = `${action}${object ? ` on ${object}` : ''}`;
    if (count !== undefined) add(`${count} ${what} decision(s) by then`, n === count, `${n} found`);
    else add(`a ${what} decision by then`, n > 0, 'none found');
  }
  if (!out.length) out.push({ description: 'an expectation with nothing to check', ok: false, actual: 'no object or check given' });
  return out;
}

/** Stopped by SimulationOptions.shouldStop (sim.stopped): only the entries reached are returned. */
export function checkExpectations(sim: Checkable): ExpectationResult[] {
  const entries = sim.scenario.expect.map((e, i) => ({ e, i, t: sim.timeOf(e.at) }));
  const ordered = [...entries].sort((a, b) => a.t - b.t || a.i - b.i);
  if (ordered.length && sim.now > ordered[0].t) sim.reset();
  const results: ExpectationResult[] = new Array(entries.length);
  for (const { e, i, t } of ordered) {
    sim.runUntil(t);
    if (sim.stopped) break;
    const outcomes = checkOne(sim, e);
    const failed = outcomes.filter((o) => !o.ok);
    const r: ExpectationResult = {
      index: e.index ?? i,
      at: formatTime(t),
      description: `at ${formatTime(t)}: ${outcomes.map((o) => o.description).join('; ')}`,
      ok: failed.length === 0,
    };
    // one check: its description is already the line above the finding, so the finding alone ("it
    // exists on node-a1", not "Pod/x is deleted: it exists on node-a1", which read as the opposite)
    if (failed.length) r.actual = outcomes.length === 1 ? failed[0].actual : failed.map((o) => `${o.description}: ${o.actual}`).join('; ');
    const object = targetRef(e) ?? e.decision?.object;
    if (object) r.object = object;
    if (e.position) r.position = e.position;
    results[i] = r;
  }
  return sim.stopped ? results.filter((r) => r !== undefined) : results;
}
