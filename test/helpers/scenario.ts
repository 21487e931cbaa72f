/**
 * Small scenarios for simulation tests, built in code: objects as Kubernetes
 * would export them, loaded through the real loader, and events/expectations
 * in the loader's typed form.
 */
import { loadSnapshot } from '../../src/engine/snapshot/load';
import type { Expectation, Scenario, ScenarioEvent } from '../../src/engine/snapshot/types';
import type { KObject } from '../../src/engine/model/types';
import { parseDuration, parseTimestamp } from '../../src/engine/model/time';

export const T0 = '2026-01-01T00:00:00Z';
export const T0_MICROS = parseTimestamp(T0)!;

/** `30s` after T0 as an RFC3339 string (whole seconds) */
export function at(offset: string): string {
  return new Date((T0_MICROS + parseDuration(offset)!) / 1000).toISOString().replace('.000Z', 'Z');
}

export interface NodeOpts {
  ready?: 'True' | 'False' | 'Unknown';
  /** offset before T0 of the Ready heartbeat, e.g. `5s` (default `5s`) */
  heartbeatAgo?: string;
  transitionAgo?: string;
  zone?: string;
  labels?: Record<string, string>;
  taints?: KObject[];
  noConditions?: boolean;
  pressure?: boolean;
}

function ago(d: string): string {
  return new Date((T0_MICROS - parseDuration(d)!) / 1000).toISOString().replace('.000Z', 'Z');
}

export function node(name: string, o: NodeOpts = {}): KObject {
  const hb = ago(o.heartbeatAgo ?? '5s');
  const tr = ago(o.transitionAgo ?? '1h');
  const labels: Record<string, string> = { 'kubernetes.io/hostname': name, ...(o.zone ? { 'topology.kubernetes.io/zone': o.zone } : {}), ...(o.labels ?? {}) };
  const conditions = o.noConditions
    ? []
    : [
        ...(o.pressure === false
          ? []
          : [{ type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', lastHeartbeatTime: hb, lastTransitionTime: tr }]),
        { type: 'Ready', status: o.ready ?? 'True', reason: 'KubeletReady', lastHeartbeatTime: hb, lastTransitionTime: tr },
      ];
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}`, labels, creationTimestamp: ago('2h') },
    spec: o.taints ? { taints: o.taints } : {},
    status: { conditions },
  };
}

export function lease(name: string, renewAgo: string): KObject {
  const t = new Date((T0_MICROS - parseDuration(renewAgo)!) / 1000).toISOString().replace('Z', '000Z');
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease', uid: `lease-${name}` },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: t },
  };
}

export function pod(
  ns: string,
  name: string,
  nodeName: string | undefined,
  extra: { tolerations?: KObject[]; labels?: Record<string, string>; owner?: KObject } = {},
): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      uid: `uid-${ns}-${name}`,
      labels: extra.labels ?? {},
      creationTimestamp: ago('1h'),
      ...(extra.owner ? { ownerReferences: [extra.owner] } : {}),
    },
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'x' }], ...(extra.tolerations ? { tolerations: extra.tolerations } : {}) },
    status: { phase: nodeName ? 'Running' : 'Pending', conditions: nodeName ? [{ type: 'Ready', status: 'True', lastTransitionTime: ago('1h') }] : [] },
  };
}

export function replicaSet(ns: string, name: string, replicas: number, labels: Record<string, string>): KObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: ns, uid: `uid-rs-${ns}-${name}`, generation: 1 },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } } },
    status: { replicas, readyReplicas: replicas, availableReplicas: replicas, fullyLabeledReplicas: replicas, observedGeneration: 1 },
  };
}

/** An event in the loader's typed form at an offset from T0 (index = its position in the list). */
export type EventSpec = Omit<ScenarioEvent, 'at' | 'index'> & { at: string };
export type ExpectSpec = Omit<Expectation, 'at' | 'index'> & { at: string };

export interface ScenarioSpec {
  objects: KObject[];
  version?: string;
  memory?: 'reconstructed' | 'fresh';
  binder?: 'simplified' | 'none';
  events?: EventSpec[];
  expect?: ExpectSpec[];
  startTime?: string;
  /** default `absent`: the objects are written by hand, as a scenario's inline `objects:` */
  missingLeases?: 'assumed' | 'absent';
}

export function scenarioOf(spec: ScenarioSpec): Scenario {
  const snapshot = loadSnapshot({ file: 'test.json', text: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: spec.objects }) });
  const events = (spec.events ?? []).map((e, index) => ({ ...e, at: { offset: parseDuration(e.at)! }, index }) as ScenarioEvent);
  const expect = (spec.expect ?? []).map((e, index) => ({ ...e, at: { offset: parseDuration(e.at)! }, index }) as Expectation);
  return {
    name: 'test',
    file: 'test.yaml',
    plainSnapshot: false,
    kubernetesVersion: spec.version ?? '1.31',
    startTime: parseTimestamp(spec.startTime ?? T0),
    controllerMemory: spec.memory ?? 'reconstructed',
    missingLeases: spec.missingLeases ?? 'absent',
    binder: spec.binder ?? 'simplified',
    snapshot,
    controllerManager: { settings: {}, featureGates: {}, flags: [] },
    kubelet: {},
    events,
    expect,
    problems: [...snapshot.problems],
  };
}
