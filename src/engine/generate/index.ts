/**
 * The cluster generator: realistic, deterministic clusters of any size, as
 * `kubectl get nodes,pods,replicasets,daemonsets,leases -A -o json|yaml`
 * exports them, and optionally a scenario with a timeline (spec 1.2).
 * `controller-stepper generate` and the benchmark (bench/) call it.
 *
 * Options (every one optional):
 *
 * | option              | default                   | meaning |
 * |---------------------|---------------------------|---------|
 * | `nodes`             | 10                        | Nodes, 1..30000. Node i is in zone i mod `zones`. |
 * | `podsPerNode`       | 10                        | Pods on every node, 1..250, DaemonSet pods included. Total pods = nodes × podsPerNode. |
 * | `zones`             | 3                         | Zones, 0..26, named `<region>a`, `<region>b`, ...; 0 = no zone or region labels. |
 * | `seed`              | 1                         | Any number or string. Same options and seed: byte-identical output. |
 * | `controlPlaneNodes` | min(3, floor(nodes / 3))  | The first nodes are control-plane nodes, tainted NoSchedule; they run the kube-system Deployments. |
 * | `daemonSets`        | 2                         | 0..3 of kube-proxy, fluent-bit, node-exporter; each has one pod on every node. |
 * | `kubernetesVersion` | `"1.31"`                  | "1.12".."1.37": labels, taints, Leases (1.13+), pod conditions and heartbeats of that version. |
 * | `now`               | `"2026-01-01T00:00:00Z"`  | The export time: every timestamp is at or before it; kubelets heartbeat shortly before it. |
 * | `region`            | `"us-east-1"`             | Region label value and zone name prefix. |
 * | `managedFields`     | 0.1                       | Fraction (0..1) of Nodes, Pods and ReplicaSets that carry `metadata.managedFields` (1.18+). |
 * | `detail`            | `"full"`                  | `full`, or `lean`: no managedFields, node images, container IDs or service-account token volumes. A full export of 150,000 pods is about 0.5 GB even as compact JSON, more than one JavaScript string can hold (2^29 - 24 characters); `lean` keeps such a cluster under it. |
 * | `format`            | `"json"`                  | `json` or `yaml`, for `generateClusterText` / `renderList`. |
 * | `indent`            | 4                         | JSON indent; kubectl prints 4; 0 prints each object on one line (as `jq -c`). |
 * | `timeline`          | none                      | When given, a scenario is generated too (see `TimelineOptions`). |
 * | `snapshotPath`      | `"./cluster.json"`        | The scenario's `snapshot:` (where the caller writes the cluster). |
 *
 * What is generated: Nodes with NetworkUnavailable, MemoryPressure, DiskPressure,
 * PIDPressure and Ready conditions (heartbeat and transition times), zone and region
 * labels (topology.kubernetes.io from 1.17, and failure-domain.beta), capacity,
 * allocatable, nodeInfo, images; one Lease per node in kube-node-lease (1.13+);
 * DaemonSets that tolerate everything, with one pod per node; Deployment-owned
 * ReplicaSets (a third with an older revision scaled to 0) whose pods are spread
 * over nodes and zones, with the DefaultTolerationSeconds tolerations (300 s) on
 * most and a mix of 0 s, 60 s, infinite and none on some (5 % each); pod
 * conditions, container statuses with restart counts, owner references.
 * Objects are listed as kubectl lists them: nodes, pods, replicasets, daemonsets,
 * leases, each sorted by namespace and name, keys sorted.
 *
 * Errors in the options throw a `GenerateOptionsError` whose message names the
 * option and what was expected (the CLI prints it and exits 2).
 */
import type { KObject } from '../model/types';
import { formatKubeTime, parseDuration, parseTimestamp } from '../model/time';
import { ObjectBuilder } from './objects';
import { MAX_DAEMON_SETS, planCluster, type ResolvedOptions } from './plan';
import { MAX_MINOR, MIN_MINOR } from '../versions/table';
import { clusterList, renderList, renderObject, sortKeys, type OutputFormat } from './serialize';

export { clusterList, listChunks, renderList, renderObject, yamlDocumentChunks, type OutputFormat } from './serialize';
export { Random } from './random';

export interface GenerateOptions {
  nodes?: number;
  podsPerNode?: number;
  zones?: number;
  seed?: number | string;
  controlPlaneNodes?: number;
  daemonSets?: number;
  kubernetesVersion?: string;
  now?: string;
  region?: string;
  managedFields?: number;
  detail?: 'full' | 'lean';
  format?: OutputFormat;
  indent?: number;
  timeline?: TimelineOptions;
  snapshotPath?: string;
}

/**
 * The scenario's timeline. `zoneOutage`: every kubelet of the zone stops
 * (`kubelet: stop`, heartbeats and Lease) at `at` and starts again at
 * `recoverAt`; `zone` is a zone name or its 0-based index; `at`/`recoverAt`
 * are offsets from the start (`60s`, `30m`) or RFC3339 times; `only`
 * stops just the status posts or just the Lease. `events` are appended as
 * written (scenario events of spec 1.2). `name` names the scenario.
 */
export interface TimelineOptions {
  name?: string;
  zoneOutage?: { zone: string | number; at: string; recoverAt?: string; only?: 'status' | 'lease' };
  events?: KObject[];
}

export interface GeneratedCounts {
  nodes: number;
  pods: number;
  replicaSets: number;
  daemonSets: number;
  leases: number;
  /** nodes per zone name ('' when unlabelled) */
  zones: Record<string, number>;
}

export interface GeneratedCluster {
  /** the `kind: List` kubectl would print */
  list: KObject;
  /** its items: nodes, pods, replicasets, daemonsets, leases */
  objects: KObject[];
  /** the scenario, when a timeline was asked for */
  scenario?: KObject;
  counts: GeneratedCounts;
}

export interface GeneratedStream {
  /** built lazily, one at a time; iterate once */
  items: Iterable<KObject>;
  scenario?: KObject;
  counts: GeneratedCounts;
}

export class GenerateOptionsError extends Error {
  override name = 'GenerateOptionsError';
}

const DEFAULT_NOW = '2026-01-01T00:00:00Z';

export function generateCluster(options: GenerateOptions = {}): GeneratedCluster {
  const stream = generateClusterStream(options);
  const objects = [...stream.items];
  return { list: clusterList(objects), objects, scenario: stream.scenario, counts: stream.counts };
}

/** The same objects as generateCluster, built as they are consumed (for very large clusters). */
export function generateClusterStream(options: GenerateOptions = {}): GeneratedStream {
  const o = resolveGenerateOptions(options);
  const scenario = options.timeline ? buildScenario(options, o) : undefined;
  const plan = planCluster(o);
  const zones: Record<string, number> = {};
  for (const n of plan.nodes) {
    const z = n.zone >= 0 ? o.zoneNames[n.zone] : '';
    zones[z] = (zones[z] ?? 0) + 1;
  }
  const leases = o.kubernetesMinor >= 13;
  const counts: GeneratedCounts = {
    nodes: plan.nodes.length,
    pods: plan.pods.length,
    replicaSets: plan.replicaSets.length,
    daemonSets: plan.daemonSets.length,
    leases: leases ? plan.nodes.length : 0,
    zones,
  };
  function* items(): Generator<KObject> {
    const b = new ObjectBuilder(plan);
    const sorted = (x: KObject) => sortKeys(x) as KObject;
    for (const n of [...plan.nodes].sort((a, c) => (a.name < c.name ? -1 : 1))) yield sorted(b.node(n));
    for (const p of plan.pods) yield sorted(b.pod(p));
    for (const rs of plan.replicaSets) yield sorted(b.replicaSet(rs));
    for (const ds of plan.daemonSets) yield sorted(b.daemonSet(ds));
    if (leases) for (const n of [...plan.nodes].sort((a, c) => (a.name < c.name ? -1 : 1))) yield sorted(b.lease(n));
  }
  let used = false;
  return {
    items: {
      [Symbol.iterator]() {
        if (used) throw new Error('generateClusterStream: items can be iterated only once');
        used = true;
        return items();
      },
    },
    scenario,
    counts,
  };
}

/** The cluster (and scenario) as text in `options.format` (default json). */
export function generateClusterText(options: GenerateOptions = {}): { cluster: string; scenario?: string; counts: GeneratedCounts } {
  const format = options.format ?? 'json';
  const stream = generateClusterStream(options);
  return {
    cluster: renderList(stream.items, format, options.indent),
    scenario: stream.scenario && renderObject(stream.scenario, format, options.indent),
    counts: stream.counts,
  };
}

/** Checks the options and fills in the defaults; throws GenerateOptionsError. */
export function resolveGenerateOptions(options: GenerateOptions): ResolvedOptions {
  const int = (name: keyof GenerateOptions, value: unknown, def: number, min: number, max: number): number => {
    if (value === undefined) return def;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new GenerateOptionsError(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
    }
    return value;
  };
  const nodes = int('nodes', options.nodes, 10, 1, 30_000);
  const podsPerNode = int('podsPerNode', options.podsPerNode, 10, 1, 250);
  const zones = int('zones', options.zones, 3, 0, 26);
  const controlPlaneNodes = int('controlPlaneNodes', options.controlPlaneNodes, Math.min(3, Math.floor(nodes / 3)), 0, nodes - 1);
  const daemonSets = int('daemonSets', options.daemonSets, 2, 0, MAX_DAEMON_SETS);
  const seed = options.seed ?? 1;
  if (typeof seed === 'number' ? !Number.isFinite(seed) : typeof seed !== 'string') {
    throw new GenerateOptionsError(`seed must be a number or a string, not ${JSON.stringify(seed)}`);
  }
  const version = options.kubernetesVersion ?? '1.31';
  const vm = /^v?1\.(\d+)(?:\.\d+)?$/.exec(String(version));
  const minor = vm ? Number(vm[1]) : NaN;
  if (!(minor >= MIN_MINOR && minor <= MAX_MINOR)) {
    throw new GenerateOptionsError(`kubernetesVersion must be "1.${MIN_MINOR}" to "1.${MAX_MINOR}", not ${JSON.stringify(version)}`);
  }
  const now = parseTimestamp(options.now ?? DEFAULT_NOW);
  if (now === undefined) throw new GenerateOptionsError(`now must be an RFC3339 time such as ${DEFAULT_NOW}, not ${JSON.stringify(options.now)}`);
  const region = options.region ?? 'us-east-1';
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(region)) {
    throw new GenerateOptionsError(`region must be a label value such as us-east-1, not ${JSON.stringify(region)}`);
  }
  const managedFieldsFraction = options.managedFields ?? 0.1;
  if (typeof managedFieldsFraction !== 'number' || !(managedFieldsFraction >= 0 && managedFieldsFraction <= 1)) {
    throw new GenerateOptionsError(`managedFields must be a fraction from 0 to 1, not ${JSON.stringify(options.managedFields)}`);
  }
  if (options.format !== undefined && options.format !== 'json' && options.format !== 'yaml') {
    throw new GenerateOptionsError(`format must be json or yaml, not ${JSON.stringify(options.format)}`);
  }
  if (options.detail !== undefined && options.detail !== 'full' && options.detail !== 'lean') {
    throw new GenerateOptionsError(`detail must be full or lean, not ${JSON.stringify(options.detail)}`);
  }
  int('indent', options.indent, 4, 0, 8);
  if (controlPlaneNodes > 0 && nodes - controlPlaneNodes < 1) {
    throw new GenerateOptionsError('at least one node must be a worker');
  }
  const zoneNames = Array.from({ length: zones }, (_, i) => `${region}${String.fromCharCode(97 + i)}`);
  return {
    nodes,
    podsPerNode,
    zones,
    seed,
    controlPlaneNodes,
    daemonSets,
    kubernetesMinor: minor,
    now,
    region,
    zoneNames,
    managedFieldsFraction,
    lean: options.detail === 'lean',
  };
}

function timeSpec(name: string, text: unknown): { text: string; offset?: number; time?: number } {
  if (typeof text === 'string') {
    const d = parseDuration(text);
    if (d !== undefined && d >= 0) return { text: text.trim(), offset: d };
    const t = parseTimestamp(text);
    if (t !== undefined) return { text, time: t };
  }
  throw new GenerateOptionsError(`${name} must be an offset such as 60s or 30m, or an RFC3339 time, not ${JSON.stringify(text)}`);
}

function buildScenario(options: GenerateOptions, o: ResolvedOptions): KObject {
  const timeline = options.timeline ?? {};
  const events: KObject[] = [];
  let name = timeline.name;
  const outage = timeline.zoneOutage;
  if (outage) {
    if (!o.zoneNames.length) throw new GenerateOptionsError('timeline.zoneOutage needs zones (zones is 0)');
    const zone = typeof outage.zone === 'number' ? o.zoneNames[outage.zone] : o.zoneNames.find((z) => z === outage.zone);
    if (!zone) {
      throw new GenerateOptionsError(`timeline.zoneOutage.zone must be one of ${o.zoneNames.join(', ')} (or its index), not ${JSON.stringify(outage.zone)}`);
    }
    if (outage.only !== undefined && outage.only !== 'status' && outage.only !== 'lease') {
      throw new GenerateOptionsError(`timeline.zoneOutage.only must be status or lease, not ${JSON.stringify(outage.only)}`);
    }
    const at = timeSpec('timeline.zoneOutage.at', outage.at);
    const stop: KObject = { at: at.text, kubelet: 'stop', zone };
    if (outage.only) stop.only = outage.only;
    events.push(stop);
    if (outage.recoverAt !== undefined) {
      const back = timeSpec('timeline.zoneOutage.recoverAt', outage.recoverAt);
      const abs = (s: { offset?: number; time?: number }) => s.time ?? o.now + (s.offset ?? 0);
      if (abs(back) <= abs(at)) throw new GenerateOptionsError('timeline.zoneOutage.recoverAt must be later than at');
      events.push({ at: back.text, kubelet: 'start', zone });
    }
    name ??= `${zone}-outage`;
  }
  if (timeline.events !== undefined) {
    if (!Array.isArray(timeline.events)) throw new GenerateOptionsError('timeline.events must be a list of scenario events');
    events.push(...timeline.events);
  }
  return {
    apiVersion: 'controllerstepper.io/v1alpha1',
    kind: 'Scenario',
    metadata: { name: name ?? 'generated' },
    kubernetesVersion: `1.${o.kubernetesMinor}`,
    startTime: formatKubeTime(o.now),
    snapshot: options.snapshotPath ?? './cluster.json',
    events,
  };
}
