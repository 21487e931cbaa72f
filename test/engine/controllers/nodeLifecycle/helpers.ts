/**
 * Test fixtures for the node lifecycle controller: nodes, pods and leases as
 * the loader would type them, a FakeHost with the version's real defaults
 * (versions/table.ts, config/defaults.ts), and a small driver that wakes the
 * controller at the instants it asks for, as the simulation does.
 */
import { FakeHost } from '../../../helpers/fakeHost';
import { behaviourOf, kubeVersion } from '../../../../src/engine/versions/table';
import { defaultControllerConfig, defaultKubeletConfig } from '../../../../src/engine/config/defaults';
import type { ControllerConfig } from '../../../../src/engine/config/types';
import type { Micros } from '../../../../src/engine/model/time';
import { formatTime, parseTimestamp, seconds } from '../../../../src/engine/model/time';
import type { ConditionStatus, LeaseRecord, NodeCondition, NodeRecord, PodRecord, Taint } from '../../../../src/engine/model/types';
import { createNodeLifecycleController, type NodeLifecycleController, type NodeLifecycleOptions } from '../../../../src/engine/controllers/nodeLifecycle';
import type { Decision } from '../../../../src/engine/trace/decision';

export const T0: Micros = parseTimestamp('2026-01-01T00:00:00Z')!;
export const at = (s: number): Micros => T0 + seconds(s);

export interface NodeSpec {
  ready?: ConditionStatus | null;
  /** seconds relative to T0 */
  hb?: number;
  tt?: number;
  created?: number;
  zone?: string;
  region?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  conditions?: Partial<NodeCondition>[];
}

export function node(name: string, s: NodeSpec = {}): NodeRecord {
  const labels: Record<string, string> = { ...(s.labels ?? {}) };
  if (s.zone !== undefined) labels['topology.kubernetes.io/zone'] = s.zone;
  if (s.region !== undefined) labels['topology.kubernetes.io/region'] = s.region;
  const conditions: NodeCondition[] = [];
  const ready = s.ready === undefined ? 'True' : s.ready;
  if (ready !== null) {
    conditions.push({
      type: 'Ready',
      status: ready,
      reason: ready === 'True' ? 'KubeletReady' : 'KubeletNotReady',
      lastHeartbeatTime: at(s.hb ?? 0),
      lastTransitionTime: at(s.tt ?? -3600),
    });
  }
  for (const c of s.conditions ?? []) {
    conditions.push({
      type: c.type!,
      status: c.status ?? 'False',
      lastHeartbeatTime: c.lastHeartbeatTime ?? at(s.hb ?? 0),
      lastTransitionTime: c.lastTransitionTime ?? at(-3600),
      ...(c.reason ? { reason: c.reason } : {}),
    });
  }
  return {
    kind: 'Node',
    meta: { name, uid: `uid-${name}`, labels, annotations: {}, ownerReferences: [], creationTimestamp: at(s.created ?? -86400) },
    conditions,
    taints: (s.taints ?? []).map((t) => ({ ...t })),
    unschedulable: s.unschedulable ?? false,
    raw: {},
  };
}

export function pod(
  ns: string,
  name: string,
  nodeName: string | undefined,
  o: { ready?: ConditionStatus; labels?: Record<string, string>; deleting?: boolean } = {},
): PodRecord {
  return {
    kind: 'Pod',
    meta: {
      name,
      namespace: ns,
      uid: `uid-${ns}-${name}`,
      labels: o.labels ?? { app: name },
      annotations: {},
      ownerReferences: [],
      creationTimestamp: at(-3600),
      ...(o.deleting ? { deletionTimestamp: at(-1) } : {}),
    },
    ...(nodeName ? { nodeName } : {}),
    tolerations: [],
    phase: 'Running',
    restartCount: 0,
    conditions: [{ type: 'Ready', status: o.ready ?? 'True', lastTransitionTime: at(-3600) }],
    raw: {},
  };
}

export function lease(name: string, renew: number): LeaseRecord {
  return {
    kind: 'Lease',
    meta: { name, namespace: 'kube-node-lease', uid: `lease-${name}`, labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: at(-86400) },
    holderIdentity: name,
    leaseDurationSeconds: 40,
    renewTime: at(renew),
    raw: {},
  };
}

export interface Setup {
  minor: number;
  nodes?: NodeRecord[];
  pods?: PodRecord[];
  leases?: LeaseRecord[];
  daemonSets?: { ns: string; name: string; selector: unknown }[];
  config?: Partial<ControllerConfig>;
  gates?: Record<string, boolean>;
  memory?: 'reconstructed' | 'fresh';
  faults?: Record<string, number>;
  options?: NodeLifecycleOptions;
}

export interface Rig {
  host: FakeHost;
  c: NodeLifecycleController;
  /** runs every wake the controller asks for up to and including t */
  runUntil(t: Micros): void;
  /** a kubelet post at host.now: Ready (and heartbeat), as the informer announces it */
  post(name: string, status?: ConditionStatus): void;
  /**
   * Plain posts at host.now, as the simulation's kubelets make them: a node whose Ready is True or
   * False gets a new heartbeat time only, and all of them are announced as one batch of heartbeats
   * (onNodeHeartbeats, in one reused array); any other node is posted with `post`.
   */
  beat(names: readonly string[]): void;
  renewLease(name: string): void;
  /** a new Lease record for the node (as an apply would write), renewed now */
  replaceLease(name: string): void;
  deleteLease(name: string): void;
  decisions(action?: string, object?: string): Decision[];
  times(action: string, object?: string): string[];
}

export function rig(s: Setup): Rig {
  // the batch of heartbeats, reused as the kubelets reuse theirs
  const beats: NodeRecord[] = [];
  const behaviour = behaviourOf(kubeVersion(s.minor));
  const config = { ...defaultControllerConfig(behaviour), ...(s.config ?? {}) };
  config.featureGates = { ...config.featureGates, ...(s.gates ?? {}) };
  const host = new FakeHost({ now: T0, config, kubelet: defaultKubeletConfig(behaviour), behaviour, faults: s.faults });
  for (const n of s.nodes ?? []) host.cluster.nodes.set(n.meta.name, n);
  for (const p of s.pods ?? []) {
    const key = `${p.meta.namespace}/${p.meta.name}`;
    host.cluster.pods.set(key, p);
    if (p.nodeName) {
      let set = host.cluster.podsByNode.get(p.nodeName);
      if (!set) host.cluster.podsByNode.set(p.nodeName, (set = new Set()));
      set.add(key);
    }
  }
  for (const l of s.leases ?? []) host.cluster.leases.set(l.meta.name, l);
  for (const d of s.daemonSets ?? []) {
    host.cluster.daemonSets.set(`${d.ns}/${d.name}`, {
      kind: 'DaemonSet',
      meta: { name: d.name, namespace: d.ns, uid: `ds-${d.name}`, labels: {}, annotations: {}, ownerReferences: [], creationTimestamp: at(-86400) },
      raw: { spec: { selector: d.selector } },
    });
  }
  // a send the node health machine refuses throws: the controller and its machine must agree
  const c = createNodeLifecycleController({ strictMachines: true, ...s.options });
  c.start(host, s.memory ?? 'fresh');
  const r: Rig = {
    host,
    c,
    runUntil(t) {
      for (let guard = 0; guard < 1_000_000; guard++) {
        const w = c.nextWake();
        if (w === undefined || w > t) break;
        if (w < host.now) throw new Error(`controller asked for a wake in the past: ${w} < ${host.now}`);
        host.now = w;
        if (c.isMonitorPassDue(w)) host.pass = host.pass === null ? 0 : host.pass + 1;
        c.wake(host);
      }
      host.now = Math.max(host.now, t);
    },
    post(name, status) {
      const n = host.cluster.nodes.get(name)!;
      const ready = n.conditions.find((x) => x.type === 'Ready');
      if (ready) {
        const st = status ?? (ready.status === 'Unknown' ? 'True' : ready.status);
        if (st !== ready.status) {
          ready.lastTransitionTime = host.now;
          ready.reason = st === 'True' ? 'KubeletReady' : 'KubeletNotReady';
          ready.message = '';
        }
        ready.status = st;
        ready.lastHeartbeatTime = host.now;
      } else {
        n.conditions.push({ type: 'Ready', status: status ?? 'True', lastHeartbeatTime: host.now, lastTransitionTime: host.now });
      }
      c.onNodeEvent!(host, 'updated', n);
    },
    beat(list) {
      let count = 0;
      for (const name of list) {
        const n = host.cluster.nodes.get(name)!;
        const ready = n.conditions.find((x) => x.type === 'Ready');
        if (!ready || ready.status === 'Unknown') {
          r.post(name);
          continue;
        }
        ready.lastHeartbeatTime = host.now;
        beats[count++] = n;
      }
      if (count) c.onNodeHeartbeats!(host, beats, count);
    },
    renewLease(name) {
      const l = host.cluster.leases.get(name) ?? lease(name, 0);
      l.renewTime = host.now;
      host.cluster.leases.set(name, l);
      c.onLeaseEvent!(host, 'updated', l);
    },
    replaceLease(name) {
      const l = lease(name, 0);
      l.renewTime = host.now;
      const had = host.cluster.leases.has(name);
      host.cluster.leases.set(name, l);
      c.onLeaseEvent!(host, had ? 'updated' : 'added', l);
    },
    deleteLease(name) {
      const l = host.cluster.leases.get(name);
      if (!l) return;
      host.cluster.leases.delete(name);
      c.onLeaseEvent!(host, 'deleted', l);
    },
    decisions(action, object) {
      return host.decisions.filter((d) => (!action || d.action === action) && (!object || d.object === object));
    },
    times(action, object) {
      return r.decisions(action, object).map((d) => d.time);
    },
  };
  return r;
}

/** the trace's time text for a second offset from T0 */
export function iso(s: number): string {
  return formatTime(at(s));
}

/**
 * Runs the controller to `until` while the named kubelets stay alive: each
 * posts its status (1.12) or renews its Lease (1.13+) every `every` seconds
 * from T0, as world events at that instant (before the controllers).
 */
export function drive(r: Rig, until: number, o: { alive: () => string[]; every?: number; lease?: boolean }): void {
  const every = o.every ?? 10;
  for (let s = Math.ceil((Number(r.host.now - T0) / 1e6 + 1e-9) / every) * every; s <= until; s += every) {
    if (s <= 0) continue;
    r.runUntil(at(s) - 1);
    r.host.now = at(s);
    for (const n of o.alive()) o.lease ? r.renewLease(n) : r.post(n);
  }
  r.runUntil(at(until));
}

export const names = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
