/**
 * The scenario's `apply` (and the object a `patch` makes) and `delete`: a user's kubectl apply and
 * delete of a whole object, as world decisions (world.ts applies the other events).
 */
import type { ScenarioEvent } from '../snapshot/types';
import type { KObject, NodeRecord, ObjectRecord, PodRecord, ReplicaSetRecord } from '../model/types';
import { NODE_LEASE_NAMESPACE, nodeRef, nsKey, podRef, replicaSetRef } from '../model/types';
import { isZeroTime } from '../model/time';
import type { Check } from '../trace/decision';
import type { Problem } from '../problems';
import { isEngineKind, toRecord } from '../model/convert';
import { applyDefaultTolerationSeconds } from '../model/defaultTolerations';
import type { Kubelets } from '../kubelet/kubelets';
import type { SimHost } from './simHost';

export interface WorldContext {
  host: SimHost;
  kubelets: Kubelets;
  /** restarts kube-controller-manager (new controllers, empty memory) */
  restart(failover: boolean, seq: number): void;
  problem(p: Problem): void;
}

export function findRecord(host: SimHost, kind: string, namespace: string | undefined, name: string): ObjectRecord | undefined {
  const c = host.cluster;
  switch (kind) {
    case 'Node':
      return c.nodes.get(name);
    case 'Pod':
      return c.pods.get(nsKey(namespace ?? 'default', name));
    case 'ReplicaSet':
      return c.replicaSets.get(nsKey(namespace ?? 'default', name));
    case 'DaemonSet':
      return c.daemonSets.get(nsKey(namespace ?? 'default', name));
    case 'Lease':
      return (namespace ?? NODE_LEASE_NAMESPACE) === NODE_LEASE_NAMESPACE ? c.leases.get(name) : undefined;
    default:
      return undefined;
  }
}

function refOf(rec: ObjectRecord): string {
  switch (rec.kind) {
    case 'Node':
      return nodeRef(rec.meta.name);
    case 'Pod':
      return podRef(rec.meta.namespace, rec.meta.name);
    case 'ReplicaSet':
      return replicaSetRef(rec.meta.namespace, rec.meta.name);
    case 'DaemonSet':
      return `DaemonSet/${rec.meta.namespace}/${rec.meta.name}`;
    case 'Lease':
      return `Lease/${rec.meta.namespace}/${rec.meta.name}`;
  }
}

/** `apply` (and the result of a `patch`): create or replace a whole object. */
export function applyObject(ctx: WorldContext, raw: KObject, because: Check[], src: string, ev: ScenarioEvent, patched = false): void {
  const { host } = ctx;
  const now = host.now;
  const kind = typeof raw.kind === 'string' ? raw.kind : '';
  if (!isEngineKind(kind)) {
    const md = (raw.metadata ?? {}) as { name?: string; namespace?: string };
    host.cluster.ignored.push(raw);
    ctx.problem(
      kind
        ? { code: 'ignored-kind', severity: 'info', message: `events[${ev.index}]: a ${kind} is kept but not simulated`, position: ev.position }
        : {
            code: 'missing-kind',
            severity: 'warning',
            message: `events[${ev.index}]: the applied object has no kind; kept but not simulated`,
            position: ev.position,
          },
    );
    host.decide({
      controller: 'world',
      action: 'ObjectApplied',
      object: `${kind || 'Unknown'}/${md.namespace ? `${md.namespace}/` : ''}${md.name ?? ''}`,
      summary: `Applied a ${kind || 'kind-less object'}; the simulation does not use this kind`,
      because,
      source: src,
    });
    return;
  }
  const issues: string[] = [];
  const rec = toRecord(kind, raw, (path, code, severity, message) => {
    if (severity === 'error') issues.push(`${path.join('.')}: ${message}`);
    ctx.problem({ code, severity, message: `events[${ev.index}] ${kind}: ${path.join('.')}: ${message}`, position: ev.position });
  });
  if (!rec) return;
  const old = findRecord(host, rec.kind, 'namespace' in rec.meta ? rec.meta.namespace : undefined, rec.meta.name);
  if (isZeroTime(rec.meta.creationTimestamp)) rec.meta.creationTimestamp = old ? old.meta.creationTimestamp : now;
  const ref = refOf(rec);
  const details: Record<string, unknown> = {};
  if (rec.kind === 'Pod' && !old) {
    const added = applyDefaultTolerationSeconds(rec);
    if (added.length) details.defaultTolerations = added.map((t) => `${t.key}:${t.effect} for ${t.tolerationSeconds}s`);
  }
  const seq = host.decide({
    controller: 'world',
    action: 'ObjectApplied',
    object: ref,
    summary: `${patched ? 'Patched' : old ? 'Replaced' : 'Created'} ${ref}${details.defaultTolerations ? ' (with the DefaultTolerationSeconds tolerations)' : ''}`,
    because: [
      ...because,
      { rule: old ? 'the object existed: replaced as a whole' : 'the object did not exist: created', values: { kind } },
      ...(details.defaultTolerations
        ? [{ rule: 'the DefaultTolerationSeconds admission plugin added tolerations the pod lacked', values: { added: details.defaultTolerations } }]
        : []),
    ],
    source: src,
    ...(Object.keys(details).length ? { details } : {}),
  });
  host.remember(ref, old ? 'applied' : 'created', seq);
  if (!old) host.remember(ref, 'applied', seq);
  switch (rec.kind) {
    case 'Node': {
      const before = old as NodeRecord | undefined;
      host.remember(ref, 'heartbeat', seq);
      const readyOld = before?.conditions.find((c) => c.type === 'Ready')?.status;
      if (rec.conditions.find((c) => c.type === 'Ready')?.status !== readyOld) host.remember(ref, 'ready-status', seq);
      for (const t of rec.taints)
        if (!before?.taints.some((x) => x.key === t.key && x.effect === t.effect)) host.remember(ref, `taint:${t.key}:${t.effect}`, seq);
      host.cluster.nodes.set(rec.meta.name, rec);
      if (before) {
        host.announceNode('updated', rec);
        ctx.kubelets.conditionsChanged(rec.meta.name, now);
      } else {
        ctx.kubelets.addNode(rec, now);
        host.announceNode('added', rec);
      }
      return;
    }
    case 'Pod':
      ownOwnerReferences(rec, old as PodRecord | undefined);
      host.createPod(rec);
      return;
    case 'ReplicaSet': {
      host.cluster.replicaSets.set(nsKey(rec.meta.namespace, rec.meta.name), rec);
      host.announceReplicaSet(old ? 'updated' : 'added', rec as ReplicaSetRecord);
      return;
    }
    case 'DaemonSet':
      host.cluster.daemonSets.set(nsKey(rec.meta.namespace, rec.meta.name), rec);
      return;
    case 'Lease':
      if (rec.meta.namespace !== NODE_LEASE_NAMESPACE) {
        host.cluster.ignored.push(raw);
        return;
      }
      host.cluster.leases.set(rec.meta.name, rec);
      ctx.kubelets.forgetLease(rec.meta.name);
      host.announceLease(old ? 'updated' : 'added', rec);
      return;
  }
}

/**
 * A pod an event makes gets an ownerReferences array of its own, unless it keeps the live record's.
 * The ReplicaSet controller checks a pod's owners once per array (core.ts checkedOwners), and a
 * checkpoint keeps that set itself: that is right only while an array checked after a checkpoint
 * cannot reach a pod again once a restore went back before it. The converter takes a well-formed list
 * by reference, and the list it takes (the event's, or a patched pod's raw one) is the same object in
 * every run of the event: after a step back, or in a simulation handed a pass by one that went on
 * past the event (handOff.ts: both controllers then add to one set), the pod made again was taken as
 * checked, and an owner problem a fresh run reports was missing. The raw list is made the same copy,
 * so that a later patch that leaves ownerReferences alone keeps the array (and is not checked again).
 */
function ownOwnerReferences(rec: PodRecord, old: PodRecord | undefined): void {
  const refs = rec.meta.ownerReferences;
  const md = rec.raw.metadata as Record<string, unknown> | undefined;
  // a checked copy (the converter's, of a list with a bad entry) is new already
  if (md?.ownerReferences !== refs || refs === old?.meta.ownerReferences) return;
  const own = refs.slice();
  rec.meta.ownerReferences = own;
  rec.raw = { ...rec.raw, metadata: { ...md, ownerReferences: own } };
}

export function deleteObject(ctx: WorldContext, rec: ObjectRecord, because: Check[], src: string, ev: ScenarioEvent): void {
  const { host } = ctx;
  const ref = refOf(rec);
  const orphans = rec.kind === 'Node' ? podGcNotSimulated(ctx, rec.meta.name, ev) : undefined;
  const seq = host.decide({
    controller: 'world',
    action: 'ObjectDeleted',
    object: ref,
    summary: `Deleted ${ref}${rec.kind === 'Pod' ? ' (gone at once: graceful termination is not modelled)' : ''}`,
    because: [{ rule: 'deleted by a user', values: { kind: rec.kind } }, ...(orphans ? [orphans] : []), ...because],
    source: src,
  });
  host.remember(ref, 'deleted', seq);
  const c = host.cluster;
  switch (rec.kind) {
    case 'Node':
      c.nodes.delete(rec.meta.name);
      ctx.kubelets.removeNode(rec.meta.name);
      host.announceNode('deleted', rec);
      return;
    case 'Pod':
      host.deletePod(rec);
      return;
    case 'ReplicaSet':
      c.replicaSets.delete(nsKey(rec.meta.namespace, rec.meta.name));
      host.announceReplicaSet('deleted', rec);
      return;
    case 'DaemonSet':
      c.daemonSets.delete(nsKey(rec.meta.namespace, rec.meta.name));
      return;
    case 'Lease':
      c.leases.delete(rec.meta.name);
      ctx.kubelets.forgetLease(rec.meta.name);
      host.announceLease('deleted', rec);
      return;
  }
}

/** Pods named in the pod-GC problem; the rest are counted. */
const MAX_ORPHANS_NAMED = 5;

/**
 * A node deleted with pods still bound to it: kube-controller-manager's pod garbage collector would
 * delete them (podgc gcOrphaned: every 20 s, from 1.17 (#82365) once the node has been missing for a
 * quarantine, 40 s in current releases). The simulation does not model pod GC, so they stay bound to the missing node (the taint
 * eviction controller's deletions already scheduled still fire, as upstream: its handleNodeUpdate only
 * forgets the node's taints). Said as a problem at the event, and as a check of the deletion, so that
 * neither the run nor `explain` is silently different from a cluster.
 */
function podGcNotSimulated(ctx: WorldContext, node: string, ev: ScenarioEvent): Check | undefined {
  const keys = ctx.host.cluster.podsByNode.get(node);
  if (!keys?.size) return undefined;
  const sorted = [...keys].sort();
  const shown = sorted.slice(0, MAX_ORPHANS_NAMED).join(', ') + (sorted.length > MAX_ORPHANS_NAMED ? ` and ${sorted.length - MAX_ORPHANS_NAMED} more` : '');
  const rule =
    "pods bound to a deleted node are deleted by kube-controller-manager's pod garbage collector (gcOrphaned), which is not simulated: here they stay bound to the missing node";
  ctx.problem({
    code: 'pod-gc-not-simulated',
    severity: 'warning',
    message: `events[${ev.index}]: Node ${node} is deleted with ${sorted.length === 1 ? 'pod' : `${sorted.length} pods`} ${shown} bound to it; in a cluster the pod garbage collector deletes ${sorted.length === 1 ? 'it' : 'them'} (gcOrphaned, every 20s; from 1.17 after the node has been missing for a quarantine, 40s in current releases). Pod GC is not simulated: here ${sorted.length === 1 ? 'it stays' : 'they stay'} bound to the missing node until a scheduled taint eviction or an event deletes ${sorted.length === 1 ? 'it' : 'them'}`,
    position: ev.position,
  });
  return { rule, values: { node, pods: sorted.length } };
}
