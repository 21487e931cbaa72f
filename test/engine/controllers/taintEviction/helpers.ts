/**
 * A small world for the taint eviction controller's tests: a FakeHost with the
 * version's real defaults (versions/table.ts, config/defaults.ts), nodes and
 * pods built in a line, world changes that notify the controller as the
 * informers would, and a loop that wakes the controller whenever it asks to,
 * on the virtual clock.
 */
import { FakeHost } from '../../../helpers/fakeHost';
import { behaviourOf, kubeVersion } from '../../../../src/engine/versions/table';
import { defaultControllerConfig, defaultKubeletConfig } from '../../../../src/engine/config/defaults';
import { parseTimestamp, type Micros } from '../../../../src/engine/model/time';
import type { NodeRecord, PodRecord, Taint, Toleration } from '../../../../src/engine/model/types';
import { createTaintEvictionController, type TaintEvictionController } from '../../../../src/engine/controllers/taintEviction';

export const T0: Micros = parseTimestamp('2026-01-01T00:00:00Z')!;

export interface WorldOptions {
  minor: number;
  controllers?: string[];
  enableTaintManager?: boolean;
  featureGates?: Record<string, boolean>;
  faults?: Record<string, number>;
  memory?: 'reconstructed' | 'fresh';
  nodes?: NodeRecord[];
  pods?: PodRecord[];
  now?: Micros;
}

export class World {
  host: FakeHost;
  c: TaintEvictionController;

  constructor(o: WorldOptions) {
    const behaviour = behaviourOf(kubeVersion(o.minor));
    const config = defaultControllerConfig(behaviour);
    if (o.controllers) config.controllers = new Set(o.controllers);
    if (o.enableTaintManager !== undefined) config.enableTaintManager = o.enableTaintManager;
    if (o.featureGates) config.featureGates = { ...config.featureGates, ...o.featureGates };
    this.host = new FakeHost({ now: o.now ?? T0, config, kubelet: defaultKubeletConfig(behaviour), behaviour, faults: o.faults });
    for (const n of o.nodes ?? []) this.host.cluster.nodes.set(n.meta.name, n);
    for (const p of o.pods ?? []) this.host.createPod(p);
    this.host.calls = [];
    this.c = createTaintEvictionController({ strictMachines: true });
    this.c.start(this.host, o.memory ?? 'fresh');
  }

  /** Wakes the controller whenever it asks, up to and including `t`; the clock ends at `t`. */
  runUntil(t: Micros): void {
    for (let guard = 0; guard < 1_000_000; guard++) {
      const next = this.c.nextWake();
      if (next === undefined || next > t) break;
      if (next > this.host.now) this.host.now = next;
      this.c.wake(this.host);
    }
    if (t > this.host.now) this.host.now = t;
  }

  /** Everything due now. */
  settle(): void {
    this.runUntil(this.host.now);
  }

  at(t: Micros): this {
    this.runUntil(t);
    return this;
  }

  setTaints(nodeName: string, taints: Taint[]): void {
    const node = this.host.cluster.nodes.get(nodeName)!;
    const before = { taints: node.taints, conditions: node.conditions, labels: node.meta.labels, unschedulable: node.unschedulable };
    node.taints = taints;
    this.c.onNodeEvent!(this.host, 'updated', node, before);
  }

  addNode(node: NodeRecord): void {
    this.host.cluster.nodes.set(node.meta.name, node);
    this.c.onNodeEvent!(this.host, 'added', node);
  }

  deleteNode(name: string): void {
    const node = this.host.cluster.nodes.get(name)!;
    this.host.cluster.nodes.delete(name);
    this.c.onNodeEvent!(this.host, 'deleted', node);
  }

  addPod(p: PodRecord): void {
    this.host.createPod(p);
    this.c.onPodEvent!(this.host, 'added', p);
  }

  deletePod(key: string): void {
    const p = this.host.cluster.pods.get(key)!;
    this.host.deletePod(p);
    this.c.onPodEvent!(this.host, 'deleted', p);
  }

  /** Changes a pod's nodeName and/or tolerations, as an update would. */
  updatePod(key: string, change: { nodeName?: string; tolerations?: Toleration[] }): void {
    const p = this.host.cluster.pods.get(key)!;
    const before = { nodeName: p.nodeName, tolerations: p.tolerations, phase: p.phase, conditions: p.conditions, labels: p.meta.labels };
    if (change.nodeName !== undefined && change.nodeName !== p.nodeName) {
      if (p.nodeName) this.host.cluster.podsByNode.get(p.nodeName)?.delete(key);
      p.nodeName = change.nodeName;
      let s = this.host.cluster.podsByNode.get(change.nodeName);
      if (!s) this.host.cluster.podsByNode.set(change.nodeName, (s = new Set()));
      s.add(key);
    }
    if (change.tolerations) p.tolerations = change.tolerations;
    this.c.onPodEvent!(this.host, 'updated', p, before);
  }

  exists(key: string): boolean {
    return this.host.cluster.pods.has(key);
  }

  /** `ns/name` of the pods deleted so far, in order. */
  evicted(): string[] {
    return this.host.actions('PodEvicted').map((d) => d.object.replace(/^Pod\//, ''));
  }
}

export function node(name: string, taints: Taint[] = []): NodeRecord {
  return {
    kind: 'Node',
    meta: { name, uid: `uid-${name}`, labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: T0 - 86_400_000_000 },
    conditions: [],
    taints,
    unschedulable: false,
    raw: { apiVersion: 'v1', kind: 'Node', metadata: { name } },
  };
}

export function pod(name: string, nodeName: string, tolerations: Toleration[] = [], created: Micros = T0 - 3_600_000_000, namespace = 'default'): PodRecord {
  return {
    kind: 'Pod',
    meta: { name, namespace, uid: `uid-${name}`, labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: created },
    ...(nodeName ? { nodeName } : {}),
    tolerations,
    phase: 'Running',
    conditions: [],
    restartCount: 0,
    raw: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } },
  };
}

/** `testTaint<i>=test<i>:NoExecute`, as the upstream tests' createNoExecuteTaint. */
export function testTaint(i: number, timeAdded?: Micros): Taint {
  return { key: `testTaint${i}`, value: `test${i}`, effect: 'NoExecute', ...(timeAdded !== undefined ? { timeAdded } : {}) };
}

/** A toleration of testTaint<i>; seconds undefined = forever, as the upstream tests' addToleration(-1). */
export function tolerate(i: number, seconds?: number): Toleration {
  return { key: `testTaint${i}`, value: `test${i}`, effect: 'NoExecute', ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}) };
}

export const S = 1_000_000;
/** Versions the tests run for: 1.12 (NoExecuteTaintManager), 1.31 and 1.35 (taint-eviction-controller). */
export const VERSIONS = [12, 31, 35] as const;
