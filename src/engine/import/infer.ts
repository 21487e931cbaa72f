/**
 * From what the evidence shows to a scenario that can be replayed: the
 * version, the start time, the objects (the snapshot's, or the least the
 * evidence names), the world events that must have happened (a kubelet that
 * stopped, a user's taint, a deletion, a restart) and the real decisions to
 * compare with. Each inferred event carries the evidence it came from; where
 * the evidence is silent, the assumption made is written beside it.
 *
 * A kubelet's stop is read, best first, from its heartbeats ending (an audit
 * log's Lease renewals), else from the controller's first sign of it (the
 * unreachable taint, Unknown, the taint queue, pods marked not ready): the
 * controller marks a node Unknown on the first pass after the last heartbeat
 * + nodeMonitorGracePeriod, so the stop is placed nodeMonitorGracePeriod
 * before that sign (2.5 s later, half the gap between the kubelet's 10 s
 * renewals and the 5 s passes, so the simulated pass lands nearest the real one).
 */
import { parseDuration, ms, seconds, formatTime, formatDuration, type Duration, type Micros } from '../model/time';
import { MAX_HORIZON } from '../model/limits';
import type { KObject } from '../model/types';
import { defaultOf, lookupSetting } from '../config/settings';
import { kubeMinor, MAX_MINOR, MIN_MINOR, nearestMinor } from '../versions/table';
import type { Evidence, ImportResult, Observation, RealDecision } from './types';
import type { ImportOptions } from './options';
import { restartsFromRegistrations } from './reregistration';
import type { Problem } from '../problems';

export interface KnownObjects {
  nodes: Set<string>;
  /** `ns/name` -> node name ('' when unbound) */
  pods: Map<string, string>;
  replicaSets: Set<string>;
  daemonSets?: Set<string>;
}

export interface InferredEvent {
  at: Micros;
  /** the scenario event's fields besides `at` */
  fields: Record<string, unknown>;
  /** where it came from, and what was assumed (comment lines) */
  why: string[];
}

export interface ScenarioPlan {
  version: string;
  versionWhy: string;
  startTime: Micros;
  startWhy: string;
  /** objects made up from the evidence when no snapshot names them (inline `objects:`) */
  objects: KObject[];
  events: InferredEvent[];
  reality: RealDecision[];
  assumptions: string[];
  /** what makes the scenario unusable as imported (evidence longer than one run) */
  problems: Problem[];
}

const FAILURE_SIGNS = new Set(['NodeStatusUnknown', 'PodsMarkedNotReady', 'NodeQueuedForTainting', 'NodeQueuedForEviction', 'TaintAdded', 'PodEvicted']);
const DEFAULT_MINOR = 31;
const HALF_GAP = ms(2500);
/** The real decisions on a pod that come from its node's failure, with what they say (for the assumption). */
const NODELESS_SIGNS = new Map<string, string>([
  ['PodsMarkedNotReady', 'marked not ready'],
  ['PodEvicted', 'evicted by the taint eviction controller'],
]);

export function inferScenario(result: ImportResult, options: ImportOptions, known?: KnownObjects): ScenarioPlan {
  const assumptions: string[] = [];
  const { version, why: versionWhy } = chooseVersion(result, options);
  const minor = Number(version.split('.')[1]);
  const grace = durationDefault('nodeMonitorGracePeriod', minor);
  const period = durationDefault('nodeMonitorPeriod', minor);
  const taintDelay = minor >= 34 ? 0 : period;

  const podNode = new Map<string, string>(known ? [...known.pods].map(([k, v]) => [`Pod/${k}`, v] as const) : []);
  for (const o of result.observations) if (o.kind === 'pod-on-node') podNode.set(o.pod, o.node);
  const reality = result.decisions.map((d) => ({ ...d, object: resolvePod(d.object, podNode, known) }));
  // a table without -A names pods without their namespace: it still says where the pod of that name ran
  for (const d of reality) {
    if (!d.object.startsWith('Pod/') || podNode.has(d.object)) continue;
    const bare = podNode.get(`Pod/${d.object.split('/').at(-1)}`);
    if (bare) podNode.set(d.object, bare);
  }

  // Pods marked not ready in one pass, or evicted by the taint eviction controller at one instant (its events name the
  // pod, not the node), without a known node belong to one node the evidence does not name.
  let unnamed = 0;
  for (let i = 0; i < reality.length; i++) {
    const d = reality[i];
    if (!NODELESS_SIGNS.has(d.action) || !d.object.startsWith('Pod/') || podNode.has(d.object)) continue;
    const node = `unnamed-node-${++unnamed}`;
    for (const e of reality) {
      if (e.action === d.action && e.object.startsWith('Pod/') && !podNode.has(e.object) && Math.abs(e.time - d.time) <= seconds(1))
        podNode.set(e.object, node);
    }
    assumptions.push(
      `pods ${NODELESS_SIGNS.get(d.action)} at ${formatTime(d.time)} (${[...podNode]
        .filter(([, n]) => n === node)
        .map(([p]) => p.slice(4))
        .join(', ')}) ran on a node the evidence does not name: called ${node}`,
    );
  }

  // how long a pod shown whole tolerated its node being unreachable (the default 300s otherwise)
  const tolerated = new Map<string, Micros>();
  for (const o of result.observations) {
    if (o.kind !== 'object' || o.object.kind !== 'Pod') continue;
    const m = (o.object.metadata ?? {}) as { name?: string; namespace?: string };
    const list = ((o.object.spec ?? {}) as { tolerations?: { key?: string; effect?: string; tolerationSeconds?: number }[] }).tolerations ?? [];
    const t = list.find((x) => (x.key === 'node.kubernetes.io/unreachable' || x.key === undefined) && (x.effect === 'NoExecute' || x.effect === undefined));
    if (t?.tolerationSeconds !== undefined) tolerated.set(`Pod/${m.namespace ?? 'default'}/${m.name}`, seconds(Math.max(0, t.tolerationSeconds)));
  }
  // Per node: the first sign of failure, as the time the controller saw Ready go Unknown.
  const failure = new Map<string, { t: Micros; d: RealDecision }>();
  const recover = new Map<string, { t: Micros; ev: Evidence; why: string }>();
  for (const d of reality) {
    if (!FAILURE_SIGNS.has(d.action)) continue;
    const node = d.object.startsWith('Node/') ? d.object.slice(5) : podNode.get(d.object);
    if (!node) continue;
    if (d.action === 'TaintAdded' && !/unreachable|not-ready/.test(d.detail ?? '')) continue;
    let t = d.time;
    if (d.action === 'NodeQueuedForTainting' || (d.action === 'TaintAdded' && /NoExecute/.test(d.detail ?? ''))) t -= taintDelay;
    if (d.action === 'PodEvicted') t -= (tolerated.get(d.object) ?? seconds(300)) + taintDelay;
    const prev = failure.get(node);
    if (!prev || t < prev.t) failure.set(node, { t, d });
  }
  const beats = new Map<string, Observation[]>();
  for (const o of result.observations) if (o.kind === 'heartbeat') beats.set(o.node, [...(beats.get(o.node) ?? []), o]);
  for (const o of result.observations) {
    if (o.kind === 'condition' && o.type === 'Ready' && o.status === 'True') {
      const f = failure.get(o.node);
      if (f && o.time > f.t && !recover.has(o.node)) recover.set(o.node, { t: o.time, ev: o.evidence, why: o.reason ?? 'Ready again' });
    }
  }

  const signs = [...failure.values()].map((f) => f.t);
  const t0 = signs.length ? Math.min(...signs) : undefined;
  const firstReal = reality.length ? reality[0].time : undefined;
  const firstObs = result.observations.reduce<Micros | undefined>((m, o) => ('time' in o && (m === undefined || o.time < m) ? o.time : m), undefined);
  let startTime: Micros;
  let startWhy: string;
  if (t0 !== undefined) {
    startTime = t0 - grace - seconds(45);
    const earliest = Math.min(firstReal ?? startTime, firstObs ?? startTime);
    if (earliest < startTime) startTime -= Math.ceil((startTime - earliest) / seconds(10)) * seconds(10);
    startWhy = `45s + nodeMonitorGracePeriod (${formatDuration(grace)}) before the first sign of a node failure (${formatTime(t0)}), so the kubelet's last renewal and the controller's passes line up with it`;
  } else {
    const earliest = Math.min(firstReal ?? Infinity, firstObs ?? Infinity);
    startTime = Number.isFinite(earliest) ? earliest - seconds(1) : (options.anchor ?? 0);
    startWhy = Number.isFinite(earliest)
      ? 'one second before the earliest evidence'
      : `no evidence has a time: ${options.anchorGiven ? '--at' : options.anchor === undefined ? 'the epoch' : 'the time of the import (give --at)'}`;
  }
  startTime = Math.floor(startTime / 1000) * 1000;
  const tooLong = tooLongForOneRun(result, startTime);

  const events: InferredEvent[] = [];
  for (const [node, f] of [...failure].sort((a, b) => a[1].t - b[1].t)) {
    const hb = (beats.get(node) ?? []).filter((o) => o.kind === 'heartbeat' && o.mark === 'stop' && o.time <= f.t + seconds(1)).at(-1);
    if (hb && hb.kind === 'heartbeat') {
      events.push({ at: hb.time + ms(1), fields: { kubelet: 'stop', nodes: [node] }, why: [`evidence: ${cite(hb.evidence)}`, 'the heartbeats stop here'] });
    } else {
      const at = Math.max(startTime + seconds(1), f.t - grace + HALF_GAP);
      events.push({
        at,
        fields: { kubelet: 'stop', nodes: [node] },
        why: [
          `evidence: ${cite(f.d.evidence)}`,
          `assumed: ${f.d.action}${f.d.detail ? ' ' + f.d.detail : ''} at ${formatTime(f.d.time)} means the controller saw the node Unknown at ${formatTime(f.t)}; no heartbeats in the evidence, so the kubelet is taken to have stopped nodeMonitorGracePeriod (${formatDuration(grace)}) before`,
        ],
      });
    }
    const r = recover.get(node);
    const resumed = (beats.get(node) ?? []).find((o) => o.kind === 'heartbeat' && o.mark === 'resume' && o.time > f.t);
    if (resumed && resumed.kind === 'heartbeat')
      events.push({ at: resumed.time, fields: { kubelet: 'start', nodes: [node] }, why: [`evidence: ${cite(resumed.evidence)}`, 'the heartbeats resume'] });
    else if (r)
      events.push({
        at: r.t - (r.why === 'kubelet event' ? 0 : period),
        fields: { kubelet: 'start', nodes: [node] },
        why: [
          `evidence: ${cite(r.ev)}`,
          r.why === 'kubelet event'
            ? 'the kubelet reports Ready'
            : `assumed: the controller saw Ready at most one nodeMonitorPeriod (${formatDuration(period)}) after the kubelet came back`,
        ],
      });
  }
  for (const o of result.observations) {
    if (o.kind === 'taint' || o.kind === 'untaint') {
      events.push({
        at: o.time,
        fields: { [o.kind]: { key: o.key, ...(o.value ? { value: o.value } : {}), effect: o.effect }, node: o.node },
        why: [`evidence: ${cite(o.evidence)}`, `by ${o.by}`],
      });
    } else if (o.kind === 'delete') {
      events.push({ at: o.time, fields: { delete: o.ref }, why: [`evidence: ${cite(o.evidence)}`, `by ${o.by}`] });
    } else if (o.kind === 'scale') {
      events.push({
        at: o.time,
        fields: { scale: { replicaSet: o.replicaSet.replace(/^ReplicaSet\//, ''), replicas: o.replicas } },
        why: [`evidence: ${cite(o.evidence)}`, `by ${o.by}`],
      });
    } else if (o.kind === 'restart' && !/start of this log/.test(o.identity) && o.time > startTime) {
      events.push({ at: o.time, fields: { restartControllerManager: true }, why: [`evidence: ${cite(o.evidence)}`, `new leader ${o.identity}`] });
    } else if (o.kind === 'condition' && o.reason === 'kubelet event' && o.status === 'False') {
      events.push({
        at: o.time,
        fields: { condition: { type: 'Ready', status: 'False', reason: 'KubeletNotReady' }, node: o.node },
        why: [`evidence: ${cite(o.evidence)}`, 'the kubelet posted Ready=False'],
      });
    }
  }
  const restartsShown = events.flatMap((e) => (e.fields.restartControllerManager === true ? [e.at] : []));
  events.push(...restartsFromRegistrations(reality, restartsShown, startTime, cite));
  events.sort((a, b) => a.at - b.at);

  const objects: KObject[] = [];
  const nodes = new Set<string>();
  for (const d of reality) if (d.object.startsWith('Node/')) nodes.add(d.object.slice(5));
  for (const o of result.observations) if (o.kind === 'heartbeat' || o.kind === 'taint' || o.kind === 'untaint' || o.kind === 'node-seen') nodes.add(o.node);
  for (const [, n] of podNode) if (n) nodes.add(n);
  const pods = new Set<string>();
  for (const d of reality) if (d.object.startsWith('Pod/') && d.object.split('/').length === 3) pods.add(d.object.slice(4));
  // objects the evidence shows whole (describe pod, a KWOK recording's snapshot): the latest of each
  const seen = new Map<string, { object: KObject; evidence: Evidence }>();
  for (const o of result.observations) {
    if (o.kind !== 'object') continue;
    const m = (o.object.metadata ?? {}) as { name?: string; namespace?: string };
    if (!m.name) continue;
    const key =
      o.object.kind === 'Pod' || o.object.kind === 'ReplicaSet' || o.object.kind === 'DaemonSet'
        ? `${o.object.kind}/${m.namespace ?? 'default'}/${m.name}`
        : `${o.object.kind}/${m.name}`;
    seen.set(key, { object: o.object, evidence: o.evidence });
    if (o.object.kind === 'Pod') pods.add(key.slice(4));
    else if (o.object.kind === 'Node') nodes.add(m.name);
  }
  // A pods table (-o wide) lists pods that ran on its nodes: one that had not ended and that no snapshot or other
  // evidence holds is made there, so that the controllers act on it (a row without a namespace, from a table without
  // -A, is in `default` unless the evidence names a pod of that name in another)
  const listed: string[] = [];
  const listedReady = new Map<string, boolean>();
  // the names (without namespace) of the pods the evidence and the snapshot hold, for the rows without a namespace
  const nameOf = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
  const podNames = new Set([...pods, ...(known?.pods.keys() ?? [])].map(nameOf));
  for (const o of result.observations) {
    if (o.kind !== 'pod-on-node' || !o.listed) continue;
    const bare = !o.pod.slice(4).includes('/');
    const name = o.pod.slice(4);
    if (bare && podNames.has(name)) continue;
    const ref = bare ? `default/${name}` : name;
    if (pods.has(ref) || known?.pods.has(ref) || seen.has(`Pod/${ref}`)) continue;
    pods.add(ref);
    podNames.add(nameOf(ref));
    podNode.set(`Pod/${ref}`, o.node);
    nodes.add(o.node);
    listedReady.set(ref, o.listed.ready);
    listed.push(`Pod/${ref} (${cite(o.evidence)})`);
  }
  if (listed.length)
    assumptions.push(
      `listed by a \`kubectl get pods -o wide\` table, which has no time: made running where it shows them (a row without a namespace in \`default\`): ${listed.join(', ')}`,
    );

  const made: string[] = [];
  const shown: string[] = [];
  // A node table's STATUS has no time: it is taken as the start's for a node that no other evidence shows failing
  // (whose failure the timeline above places), and a node it calls NotReady is made with a stale heartbeat, so that
  // its kubelet is stopped and the controller finds it Unknown (kubectl prints NotReady for Ready False or Unknown).
  const tableStatus = new Map<string, Extract<Observation, { kind: 'node-status' }>>();
  for (const o of result.observations) if (o.kind === 'node-status') tableStatus.set(o.node, o);
  const down: string[] = [];
  const cordoned: string[] = [];
  const snapshotWins: string[] = [];
  for (const n of [...nodes].sort()) {
    const status = tableStatus.get(n);
    if (known?.nodes.has(n)) {
      if (status && (status.ready !== 'Ready' || status.unschedulable)) snapshotWins.push(`Node/${n} (${cite(status.evidence)})`);
      continue;
    }
    const s = seen.get(`Node/${n}`);
    const stale = status && status.ready !== 'Ready' && !failure.has(n) ? startTime - grace - seconds(1) : undefined;
    objects.push(s ? s.object : minimalNode(n, startTime, { stale, noConditions: status?.ready === 'Unknown', unschedulable: status?.unschedulable }));
    if (minor >= 13) objects.push(minimalLease(n, stale ?? startTime));
    (s ? shown : made).push(`Node/${n}`);
    if (!s && stale !== undefined) down.push(`Node/${n} (${cite(status!.evidence)})`);
    if (!s && status?.unschedulable) cordoned.push(`Node/${n}`);
  }
  if (down.length)
    assumptions.push(
      `NotReady in a \`kubectl get nodes\` table, which has no time: made with their kubelets stopped before the start and Ready Unknown, as the controller would find them (kubectl prints NotReady for Ready False too): ${down.join(', ')}`,
    );
  if (cordoned.length) assumptions.push(`SchedulingDisabled in a \`kubectl get nodes\` table: made unschedulable (cordoned): ${cordoned.join(', ')}`);
  if (snapshotWins.length)
    assumptions.push(
      `a \`kubectl get nodes\` table shows these nodes not Ready or cordoned; the snapshot's state of them is simulated: ${snapshotWins.join(', ')}`,
    );
  for (const p of [...pods].sort()) {
    if (known?.pods.has(p)) continue;
    const s = seen.get(`Pod/${p}`);
    if (s) {
      objects.push(s.object);
      shown.push(`Pod/${p} (${s.evidence.file}:${s.evidence.line})`);
      continue;
    }
    const node = podNode.get(`Pod/${p}`);
    objects.push(minimalPod(p, node, startTime, listedReady.get(p) ?? true));
    made.push(`Pod/${p}`);
  }
  for (const [key, s] of seen) {
    const kind = key.slice(0, key.indexOf('/'));
    const owners = kind === 'ReplicaSet' ? known?.replicaSets : kind === 'DaemonSet' ? known?.daemonSets : undefined;
    if ((kind !== 'ReplicaSet' && kind !== 'DaemonSet') || owners?.has(key.slice(kind.length + 1))) continue;
    objects.push(s.object);
    shown.push(`${key} (${s.evidence.file}:${s.evidence.line})`);
  }
  if (shown.length) assumptions.push(`not in any snapshot, so taken as the evidence shows them: ${shown.join(', ')}`);
  if (made.length) {
    assumptions.push(
      `not in any snapshot, so made from the evidence: ${made.join(', ')} (nodes without zone labels, Ready unless said above; pods Running and Ready with the default not-ready/unreachable tolerations of 300s); give --snapshot for the real objects`,
    );
  }
  const rsOnly = [
    ...new Set(
      reality.filter((d) => d.object.startsWith('ReplicaSet/') && !known?.replicaSets.has(d.object.slice(11)) && !seen.has(d.object)).map((d) => d.object),
    ),
  ];
  if (rsOnly.length) assumptions.push(`${rsOnly.join(', ')} decided things, but no snapshot holds them: their decisions can only be compared with --snapshot`);
  if (result.problems.some((p) => p.code === 'no-heartbeats')) {
    assumptions.push(
      "the audit log holds no kubelet heartbeats (Lease renewals or status writes): the kubelets' liveness is unknown; they are taken as running unless the controllers' reactions say otherwise",
    );
  } else if (!beats.size && failure.size)
    assumptions.push("no heartbeats (Lease renewals or status writes) in the evidence: when the kubelets stopped is inferred from the controller's reaction");
  return { version, versionWhy, startTime, startWhy, objects, events, reality, assumptions, problems: tooLong ? [tooLong] : [] };
}

function chooseVersion(result: ImportResult, options: ImportOptions): { version: string; why: string } {
  if (options.version) return { version: options.version, why: 'from --version' };
  let best: { minor: number; text: string; ev: Evidence } | undefined;
  for (const o of result.observations) {
    if (o.kind !== 'version') continue;
    // a kubelet older or newer than the engine simulates still dates the cluster: the nearest version is simulated,
    // as for a snapshot's kubelets (scenario.ts, version-clamped)
    const minor = kubeMinor(o.version);
    if (minor !== undefined && (!best || minor > best.minor)) best = { minor, text: o.version, ev: o.evidence };
  }
  if (best) {
    const minor = nearestMinor(best.minor);
    return {
      version: `1.${minor}`,
      why:
        minor === best.minor
          ? `from ${cite(best.ev)}`
          : `from ${cite(best.ev)}: ${best.text} is outside 1.${MIN_MINOR}–1.${MAX_MINOR}, so the nearest simulated version (give --version)`,
    };
  }
  return versionFromWording(result.observations) ?? { version: `1.${DEFAULT_MINOR}`, why: `assumed: the evidence names no version (give --version)` };
}

/**
 * A log that names no version is still dated by its wording: the controllers' printf messages
 * became structured in 1.21, the taint manager's deletion message changed again in 1.29, and
 * 1.27 removed the pod-eviction path. Simulating a version that could not have printed the log
 * would compare it with controllers that behave otherwise.
 */
function versionFromWording(observations: readonly Observation[]): { version: string; why: string } | undefined {
  let from: { minor: number; ev: Evidence } | undefined;
  let to: { minor: number; ev: Evidence } | undefined;
  for (const o of observations) {
    if (o.kind !== 'wording') continue;
    if (!from || o.minors[0] > from.minor) from = { minor: o.minors[0], ev: o.evidence };
    if (!to || o.minors[1] < to.minor) to = { minor: o.minors[1], ev: o.evidence };
  }
  if (!from || !to) return undefined;
  const span = (a: number, b: number) => `1.${a}${b === Infinity ? ' and later' : a === b ? '' : `–1.${b}`}`;
  if (from.minor > to.minor) {
    return {
      version: `1.${DEFAULT_MINOR}`,
      why: `assumed: the evidence names no version, and its log lines' wordings belong to different versions (${cite(to.ev)} is printed up to 1.${to.minor}, ${cite(from.ev)} from 1.${from.minor}: an upgrade?); give --version`,
    };
  }
  const lo = Math.max(from.minor, MIN_MINOR);
  const hi = Math.max(Math.min(to.minor, MAX_MINOR), MIN_MINOR);
  const minor = Math.min(Math.max(DEFAULT_MINOR, lo), hi);
  const dating = to.minor < DEFAULT_MINOR ? to : from;
  return {
    version: `1.${minor}`,
    why: `assumed from the log's wording: ${cite(dating.ev)} is printed by ${span(from.minor, to.minor)}${to.minor === Infinity ? '' : ' only'}, so 1.${minor} is simulated (give --version)`,
  };
}

function durationDefault(key: string, minor: number): Duration {
  const row = lookupSetting(key);
  const v = row ? defaultOf(row, minor) : undefined;
  return (typeof v === 'string' ? parseDuration(v) : undefined) ?? seconds(40);
}

/** `Pod/name` (a log that prints the name alone) -> `Pod/ns/name` when one known pod has that name. */
function resolvePod(object: string, podNode: Map<string, string>, known?: KnownObjects): string {
  if (!object.startsWith('Pod/') || object.split('/').length !== 2) return object;
  const name = object.slice(4);
  const candidates = [...(known?.pods.keys() ?? []), ...[...podNode.keys()].map((k) => k.slice(4))].filter((k) => k.endsWith(`/${name}`));
  const unique = [...new Set(candidates)];
  return unique.length === 1 ? `Pod/${unique[0]}` : object;
}

export function cite(e: Evidence): string {
  return `${e.file}:${e.line}: ${e.text}`;
}

/**
 * A node the evidence names and no snapshot holds: Ready, heartbeating at the start; or, with `stale`, last heard of
 * then, Ready Unknown (as the controller leaves a node whose kubelet stopped), or without conditions (`noConditions`:
 * kubectl's Unknown); `unschedulable`: cordoned.
 */
function minimalNode(name: string, start: Micros, o: { stale?: Micros; noConditions?: boolean; unschedulable?: boolean } = {}): KObject {
  const t = formatTime(o.stale ?? start);
  const ready =
    o.stale === undefined
      ? { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: t, lastTransitionTime: t }
      : {
          type: 'Ready',
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
          lastHeartbeatTime: t,
          lastTransitionTime: t,
        };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    ...(o.unschedulable ? { spec: { unschedulable: true } } : {}),
    status: { conditions: o.noConditions ? [] : [ready] },
  } as KObject;
}

function minimalLease(name: string, start: Micros): KObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease' },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: formatTime(start).replace('Z', '000Z') },
  } as KObject;
}

function minimalPod(ref: string, node: string | undefined, start: Micros, ready = true): KObject {
  const [namespace, name] = ref.split('/');
  const t = formatTime(start);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, creationTimestamp: t },
    spec: {
      ...(node ? { nodeName: node } : {}),
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: t }] },
  } as KObject;
}

/**
 * Evidence that reaches further past the start than one run may (MAX_HORIZON) cannot be compared:
 * most often files of different incidents imported together, or logs without a year read in the
 * year of --at. Said once, where the latest evidence is, before `compare` refuses the scenario.
 */
const DAY = 86_400 * 1_000_000;

function tooLongForOneRun(result: ImportResult, startTime: Micros): Problem | undefined {
  let last: { time: Micros; evidence: Evidence } | undefined;
  for (const d of result.decisions) if (!last || d.time > last.time) last = d;
  for (const o of result.observations) if ('time' in o && (!last || o.time > last.time)) last = o;
  if (!last || last.time - startTime <= MAX_HORIZON) return undefined;
  return {
    code: 'evidence-too-long',
    severity: 'warning',
    message: `the evidence runs from ${formatTime(startTime)} to ${formatTime(last.time)} (${formatDuration(last.time - startTime)}, ${Math.floor((last.time - startTime) / DAY)} days), longer than one simulation runs (${formatDuration(MAX_HORIZON)}, ${MAX_HORIZON / DAY} days): compare will refuse this scenario. Files of different incidents? Import each incident's files apart; logs without a year are read in the year of --at`,
    position: { file: last.evidence.file, line: last.evidence.line, column: 1 },
  };
}
