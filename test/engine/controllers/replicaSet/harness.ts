/**
 * A small world for the ReplicaSet controller and the simplified binder: a
 * FakeHost with the version's real defaults whose world changes are announced
 * to the controllers (synchronously, as the simulation's host does, or held
 * back until `flush()` to show what happens before the informer catches up),
 * objects built from Kubernetes-shaped YAML-like literals through the real
 * converters, and a loop that wakes the controllers in the simulation's order
 * on the virtual clock.
 */
import { FakeHost } from '../../../helpers/fakeHost';
import { behaviourOf, kubeVersion } from '../../../../src/engine/versions/table';
import { defaultControllerConfig, defaultKubeletConfig } from '../../../../src/engine/config/defaults';
import { toNodeRecord, toPodRecord, toReplicaSetRecord } from '../../../../src/engine/model/convert';
import { formatTime, parseTimestamp, seconds, type Micros } from '../../../../src/engine/model/time';
import type { KObject, NodeRecord, ObjectRef, PodRecord, ReplicaSetRecord } from '../../../../src/engine/model/types';
import type { PodBefore, SimController, WatchType } from '../../../../src/engine/controllers/controller';
import type { ApiResource, ApiVerb } from '../../../../src/engine/controllers/controllerHost';
import type { ControllerName, MachineTransition } from '../../../../src/engine/trace/decision';
import { createReplicaSetController, type ReplicaSetController } from '../../../../src/engine/controllers/replicaSet';
import { createSimplifiedBinder, type SimplifiedBinder } from '../../../../src/engine/controllers/scheduler';

export const T0: Micros = parseTimestamp('2026-01-01T00:00:00Z')!;
export const iso = (t: Micros) => formatTime(t);
/** T0 minus `s` seconds, as an RFC3339 string */
export const ago = (s: number) => formatTime(T0 - seconds(s));

const podBeforeOf = (p: PodRecord): PodBefore => ({
  nodeName: p.nodeName,
  tolerations: p.tolerations.map((t) => ({ ...t })),
  phase: p.phase,
  conditions: p.conditions.map((c) => ({ ...c })),
  labels: { ...p.meta.labels },
  ...(p.meta.deletionTimestamp !== undefined ? { deletionTimestamp: p.meta.deletionTimestamp } : {}),
});

export class TestHost extends FakeHost {
  controllers: SimController[] = [];
  /** hold informer notifications until flush() */
  defer = false;
  /** lose pod notifications (a watch event that never arrives) */
  dropPodEvents = false;
  private held: (() => void)[] = [];
  /** a pod event was lost: the controller's counts may miss a change for good */
  private lostPodEvents = false;
  private seen = new Map<string, PodBefore>();
  statusWrites: string[] = [];
  /** `verb resource` -> calls made so far */
  callCounts: Record<string, number> = {};
  /** `verb resource` -> the 1-based numbers of the calls that fail */
  failing: Record<string, Set<number>> = {};

  /** Makes calls number from, from+1, … (1-based, counted from now on) of this kind fail. */
  failCalls(kind: string, from: number, count: number): void {
    const done = this.callCounts[kind] ?? 0;
    const set = (this.failing[kind] ??= new Set());
    for (let i = 0; i < count; i++) set.add(done + from + i);
  }

  override apiCall(controller: ControllerName, verb: ApiVerb, resource: ApiResource, object: ObjectRef, machine?: MachineTransition | null): boolean {
    const kind = `${verb} ${resource}`;
    const n = (this.callCounts[kind] = (this.callCounts[kind] ?? 0) + 1);
    if (this.failing[kind]?.has(n)) {
      this.decide({ controller, action: 'ApiCallFailed', object, summary: `${kind} failed (injected)`, because: [], machine, source: 'fault injection' });
      return false;
    }
    return super.apiCall(controller, verb, resource, object, machine);
  }

  private notify(f: (c: SimController) => void, pod = false): void {
    const run = () => {
      for (const c of this.controllers) f(c);
    };
    if (pod && this.dropPodEvents) {
      this.lostPodEvents = true;
      return;
    }
    if (this.defer) this.held.push(run);
    else run();
  }

  /** pod changes the controller may not have heard of (yet) */
  get podEventsLag(): boolean {
    return this.defer || this.held.length > 0 || this.lostPodEvents;
  }

  flush(): void {
    const held = this.held;
    this.held = [];
    for (const f of held) f();
  }

  override createPod(pod: PodRecord): void {
    super.createPod(pod);
    const key = `${pod.meta.namespace}/${pod.meta.name}`;
    this.seen.set(key, podBeforeOf(pod));
    this.notify((c) => c.onPodEvent?.(this, 'added', pod), true);
  }

  override deletePod(pod: PodRecord): void {
    const key = `${pod.meta.namespace}/${pod.meta.name}`;
    const before = this.seen.get(key) ?? podBeforeOf(pod);
    super.deletePod(pod);
    this.seen.delete(key);
    this.notify((c) => c.onPodEvent?.(this, 'deleted', pod, before), true);
  }

  override updatePod(pod: PodRecord): void {
    super.updatePod(pod);
    const key = `${pod.meta.namespace}/${pod.meta.name}`;
    const before = this.seen.get(key) ?? podBeforeOf(pod);
    if (before.nodeName !== pod.nodeName) {
      if (before.nodeName) this.cluster.podsByNode.get(before.nodeName)?.delete(key);
      if (pod.nodeName) {
        let s = this.cluster.podsByNode.get(pod.nodeName);
        if (!s) this.cluster.podsByNode.set(pod.nodeName, (s = new Set()));
        s.add(key);
      }
    }
    this.seen.set(key, podBeforeOf(pod));
    this.notify((c) => c.onPodEvent?.(this, 'updated', pod, before), true);
  }

  /** as the simulation's host: the status write comes back through the informer (updateRS) */
  updateReplicaSetStatus(rs: ReplicaSetRecord): void {
    this.statusWrites.push(`${rs.meta.namespace}/${rs.meta.name}`);
    this.announceReplicaSet('updated', rs);
  }

  /** what a world event would do: the object is replaced/changed, then announced */
  announceReplicaSet(type: WatchType, rs: ReplicaSetRecord): void {
    this.notify((c) => c.onReplicaSetEvent?.(this, type, rs));
  }

  announceNode(type: WatchType, node: NodeRecord, before?: NodeRecord): void {
    const b = before ? { taints: before.taints, conditions: before.conditions, labels: before.meta.labels, unschedulable: before.unschedulable } : undefined;
    this.notify((c) => c.onNodeEvent?.(this, type, node, b));
  }
}

export interface WorldOptions {
  minor: number;
  featureGates?: Record<string, boolean>;
  burstReplicas?: number;
  podStartupDelay?: number;
  faults?: Record<string, number>;
  binder?: boolean;
  replicaSets?: KObject[];
  pods?: KObject[];
  nodes?: KObject[];
  now?: Micros;
}

export class World {
  host: TestHost;
  rs: ReplicaSetController;
  binder?: SimplifiedBinder;

  constructor(o: WorldOptions) {
    const behaviour = behaviourOf(kubeVersion(o.minor));
    const config = defaultControllerConfig(behaviour);
    if (o.featureGates) config.featureGates = { ...config.featureGates, ...o.featureGates };
    if (o.burstReplicas !== undefined) config.burstReplicas = o.burstReplicas;
    const kubelet = defaultKubeletConfig(behaviour);
    if (o.podStartupDelay !== undefined) kubelet.podStartupDelay = o.podStartupDelay;
    this.host = new TestHost({ now: o.now ?? T0, config, kubelet, behaviour, faults: o.faults });
    for (const n of o.nodes ?? []) {
      const r = toNodeRecord(n)!;
      this.host.cluster.nodes.set(r.meta.name, r);
    }
    for (const r of o.replicaSets ?? []) {
      const rec = toReplicaSetRecord(r)!;
      this.host.cluster.replicaSets.set(`${rec.meta.namespace}/${rec.meta.name}`, rec);
    }
    for (const p of o.pods ?? []) this.host.createPod(toPodRecord(p)!);
    this.host.calls = [];
    const host = this.host;
    this.rs = createReplicaSetController({ readsEveryPod: () => host.podEventsLag, verifyTallies: true });
    this.host.controllers.push(this.rs);
    if (o.binder) {
      this.binder = createSimplifiedBinder();
      this.host.controllers.push(this.binder);
    }
    for (const c of this.host.controllers) c.start(this.host, 'reconstructed');
  }

  get controllers(): SimController[] {
    return this.host.controllers;
  }

  /** Wakes the controllers in order whenever they ask, up to and including `t`; the clock ends at `t`. */
  runUntil(t: Micros): void {
    for (let guard = 0; guard < 100_000; guard++) {
      let next: Micros | undefined;
      for (const c of this.controllers) {
        const w = c.nextWake();
        if (w !== undefined && (next === undefined || w < next)) next = w;
      }
      if (next === undefined || next > t) break;
      if (next > this.host.now) this.host.now = next;
      for (const c of this.controllers) {
        const w = c.nextWake();
        if (w !== undefined && w <= this.host.now) c.wake(this.host);
      }
    }
    if (t > this.host.now) this.host.now = t;
  }

  settle(): void {
    this.runUntil(this.host.now);
  }
  advance(s: number): void {
    this.runUntil(this.host.now + seconds(s));
  }

  replicaSet(key: string): ReplicaSetRecord {
    return this.host.cluster.replicaSets.get(key)!;
  }

  /** a `scale` event: spec.replicas (and generation) change, then the informer tells the controllers */
  scale(key: string, replicas: number): number {
    const rs = this.replicaSet(key);
    rs.replicas = replicas;
    rs.raw = { ...rs.raw, spec: { ...(rs.raw.spec as KObject), replicas } };
    rs.meta.generation = (rs.meta.generation ?? 0) + 1;
    const seq = this.host.decide({
      controller: 'world',
      action: 'ObjectApplied',
      object: `ReplicaSet/${key}`,
      summary: `scaled to ${replicas}`,
      because: [],
      source: 'scenario: scale',
    });
    this.host.remember(`ReplicaSet/${key}`, 'scaled', seq);
    this.host.announceReplicaSet('updated', rs);
    return seq;
  }

  /** deletes a pod as another controller would (remembering the decision) */
  evict(key: string): number {
    const pod = this.host.cluster.pods.get(key)!;
    const seq = this.host.decide({ controller: 'taint-eviction', action: 'PodEvicted', object: `Pod/${key}`, summary: 'evicted', because: [], source: 'test' });
    this.host.remember(`Pod/${key}`, 'deleted', seq);
    this.host.deletePod(pod);
    return seq;
  }

  pods(ns = 'default'): PodRecord[] {
    return [...this.host.cluster.pods.values()].filter((p) => p.meta.namespace === ns).sort((a, b) => (a.meta.name < b.meta.name ? -1 : 1));
  }

  podNames(ns = 'default'): string[] {
    return this.pods(ns).map((p) => p.meta.name);
  }
}

// ---- object literals, shaped as kubectl exports them ----

export interface RsOpts {
  replicas?: number | null;
  labels?: Record<string, string>;
  selector?: KObject | null;
  templateLabels?: Record<string, string>;
  minReadySeconds?: number;
  owner?: KObject;
  uid?: string;
  status?: KObject;
}

export function rsObject(name: string, o: RsOpts = {}, ns = 'default'): KObject {
  const labels = o.labels ?? { app: name };
  const spec: KObject = {
    template: { metadata: { labels: o.templateLabels ?? labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  };
  if (o.replicas !== null) spec.replicas = o.replicas ?? 3;
  if (o.selector !== null) spec.selector = o.selector ?? { matchLabels: labels };
  if (o.minReadySeconds !== undefined) spec.minReadySeconds = o.minReadySeconds;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: ns,
      uid: o.uid ?? `uid-rs-${name}`,
      generation: 1,
      creationTimestamp: ago(7200),
      ...(o.owner ? { ownerReferences: [o.owner] } : {}),
    },
    spec,
    status: o.status ?? { replicas: 0, fullyLabeledReplicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 1 },
  };
}

export const ownerRef = (rsName: string, uid = `uid-rs-${rsName}`): KObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name: rsName,
  uid,
  controller: true,
  blockOwnerDeletion: true,
});

export interface PodOpts {
  node?: string;
  phase?: string;
  ready?: boolean;
  /** seconds before T0 the pod became ready */
  readyAgo?: number;
  /** seconds before T0 the pod was created */
  createdAgo?: number;
  restarts?: number[];
  labels?: Record<string, string>;
  owner?: KObject | null;
  owners?: KObject[];
  annotations?: Record<string, string>;
  deleting?: boolean;
  uid?: string;
  tolerations?: KObject[];
}

export function podObject(name: string, rsName: string | undefined, o: PodOpts = {}, ns = 'default'): KObject {
  const owners = o.owners ?? (o.owner === null || !rsName ? [] : [o.owner ?? ownerRef(rsName)]);
  const ready = o.ready ?? true;
  const phase = o.phase ?? (o.node ? 'Running' : 'Pending');
  const status: KObject = {
    phase,
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: ago(o.readyAgo ?? 3600) }],
  };
  if (o.restarts) status.containerStatuses = o.restarts.map((n, i) => ({ name: `c${i}`, restartCount: n, ready }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      uid: o.uid ?? `uid-${name}`,
      labels: o.labels ?? (rsName ? { app: rsName } : {}),
      creationTimestamp: ago(o.createdAgo ?? 7200),
      ...(owners.length ? { ownerReferences: owners } : {}),
      ...(o.annotations ? { annotations: o.annotations } : {}),
      ...(o.deleting ? { deletionTimestamp: ago(1) } : {}),
    },
    spec: { ...(o.node ? { nodeName: o.node } : {}), containers: [{ name: 'c', image: 'nginx' }], ...(o.tolerations ? { tolerations: o.tolerations } : {}) },
    status,
  };
}

export interface NodeOpts {
  ready?: 'True' | 'False' | 'Unknown';
  taints?: KObject[];
  unschedulable?: boolean;
}

export function nodeObject(name: string, o: NodeOpts = {}): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}`, labels: { 'kubernetes.io/hostname': name }, creationTimestamp: ago(7200) },
    spec: { ...(o.taints ? { taints: o.taints } : {}), ...(o.unschedulable ? { unschedulable: true } : {}) },
    status: { conditions: [{ type: 'Ready', status: o.ready ?? 'True', lastHeartbeatTime: ago(5), lastTransitionTime: ago(3600) }] },
  };
}
