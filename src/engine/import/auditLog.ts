/**
 * Kubernetes audit logs: one `audit.k8s.io/v1` Event a line
 * (k8s.io/apiserver/pkg/apis/audit/v1/types.go `type Event struct`: level,
 * auditID, stage, verb, user, userAgent, objectRef, responseStatus,
 * requestObject, responseObject, requestReceivedTimestamp, stageTimestamp).
 *
 * Only `stage: ResponseComplete` is a finished write; records are put in
 * stageTimestamp order (the log is written in completion order per API
 * server, not globally). Every level is read:
 * - Metadata: no bodies. A Lease update by `system:node:NAME` is that kubelet's
 *   heartbeat; a status write by the kubelet is one too. What the controllers
 *   changed is not recorded, and that is reported.
 * - Request/RequestResponse: the bodies give taints (spec.taints, sent whole by
 *   PatchNodeTaints), the Ready condition, pod owners and replica counts.
 * Heartbeats are not kept: per node only the first, the last and where they
 * stop and start again (a silence over HEARTBEAT_GAP) are, so a day of a big
 * cluster's renewals fits in memory; a renewal that comes before the node's
 * latest one (records slightly out of order) cannot open a silence. Repeated
 * auditIDs are looked for among the last DUPLICATE_WINDOW records only.
 */
import { formatTime, parseTimestamp, seconds, type Micros } from '../model/time';
import type { Problem } from '../problems';
import type { Line } from './lines';
import { evidenceOf, type Evidence, type ImportResult } from './types';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A silence longer than this between two heartbeats is a stop and a start (the kubelet renews every 10 s). */
export const HEARTBEAT_GAP = seconds(20);
/** How many recent auditIDs are remembered to find a record written twice. */
export const DUPLICATE_WINDOW = 200_000;

interface Beats {
  via: 'lease' | 'status';
  first: { t: Micros; n: number };
  last: { t: Micros; n: number };
  /** silences: the last renewal before and the first after */
  gaps: { stop: { t: Micros; n: number }; resume: { t: Micros; n: number } }[];
}

type Actor =
  { kind: 'kubelet'; node: string } | { kind: 'node-controller' } | { kind: 'taint-eviction' } | { kind: 'replicaset' } | { kind: 'other'; name: string };

/** Who made a request: the controllers run as their service accounts, or as system:kube-controller-manager with the controller in the user agent. */
export function actorOf(user: string, agent: string): Actor {
  const m = /^system:node:(.+)$/.exec(user);
  if (m) return { kind: 'kubelet', node: m[1] };
  const who = `${user} ${agent}`;
  if (/taint-eviction-controller/.test(who)) return { kind: 'taint-eviction' };
  if (/node-controller|node-lifecycle-controller/.test(who)) return { kind: 'node-controller' };
  if (/replicaset-controller/.test(who)) return { kind: 'replicaset' };
  return { kind: 'other', name: user || '(unknown user)' };
}

interface Rec {
  t: Micros;
  n: number;
  e: Json;
  text: string;
}

export function importAuditLog(file: string, lines: Iterable<Line>, into: ImportResult): number {
  const beats = new Map<string, Beats>();
  const recs: Rec[] = [];
  let seen = new Set<string>();
  let seenBefore = new Set<string>();
  let count = 0;
  let metadataOnly = 0;
  let bodies = 0;
  const versions = new Map<string, Evidence>();
  for (const line of lines) {
    count = line.n;
    const text = line.text.trim();
    if (!text) continue;
    let e: Json;
    try {
      e = obj(JSON.parse(text));
    } catch {
      into.problems.push(warn('broken-line', file, line.n, 'not a JSON object (a line cut off or two run together): skipped'));
      continue;
    }
    if (e.kind !== 'Event' || !/^audit\.k8s\.io\//.test(str(e.apiVersion))) {
      into.problems.push(
        warn('unknown-kind', file, line.n, `expected an audit.k8s.io Event, found ${JSON.stringify(str(e.kind) || typeof e)} ${str(e.apiVersion)}: skipped`),
      );
      continue;
    }
    if (e.stage !== 'ResponseComplete') continue;
    const id = str(e.auditID);
    if (id) {
      if (seen.has(id) || seenBefore.has(id)) {
        into.problems.push(warn('duplicate', file, line.n, `audit event ${id} appears twice (ResponseComplete): the copy is skipped`));
        continue;
      }
      seen.add(id);
      if (seen.size >= DUPLICATE_WINDOW) {
        seenBefore = seen;
        seen = new Set();
      }
    }
    const t = parseTimestamp(str(e.stageTimestamp)) ?? parseTimestamp(str(e.requestReceivedTimestamp));
    if (t === undefined) {
      into.problems.push(warn('missing-time', file, line.n, 'an audit event without stageTimestamp: skipped'));
      continue;
    }
    const code = Number(obj(e.responseStatus).code ?? 200);
    if (code >= 300) continue;
    const ref = obj(e.objectRef);
    const resource = str(ref.resource);
    const verb = str(e.verb);
    if (!['create', 'update', 'patch', 'delete'].includes(verb)) continue;
    const user = str(obj(e.user).username);
    const agent = str(e.userAgent);
    const v = /^(kubelet|kube-controller-manager)\/v(1\.\d+)/.exec(agent);
    if (v && !versions.has(v[2])) versions.set(v[2], evidenceOf(file, line.n, agent, 'audit-log'));
    const actor = actorOf(user, agent);
    if (
      actor.kind === 'kubelet' &&
      ((resource === 'leases' && str(ref.namespace) === 'kube-node-lease') || (resource === 'nodes' && str(ref.subresource) === 'status'))
    ) {
      const node = resource === 'leases' ? str(ref.name) : str(ref.name) || actor.node;
      const at = { t, n: line.n };
      const b = beats.get(node);
      if (!b) beats.set(node, { via: resource === 'leases' ? 'lease' : 'status', first: at, last: at, gaps: [] });
      else if (t < b.first.t) b.first = at;
      else if (t > b.last.t) {
        if (t - b.last.t > HEARTBEAT_GAP) b.gaps.push({ stop: b.last, resume: at });
        b.last = at;
      }
      if (resource === 'nodes' && (e.requestObject || e.responseObject)) recs.push({ t, n: line.n, e, text });
      continue;
    }
    if (!['nodes', 'pods', 'replicasets', 'leases'].includes(resource)) continue;
    if (e.level === 'Metadata') metadataOnly++;
    else bodies++;
    recs.push({ t, n: line.n, e, text });
  }
  recs.sort((a, b) => a.t - b.t || a.n - b.n);
  const state: WriteState = { taints: new Map(), ready: new Map(), leader: undefined, metadataWrites: 0 };
  for (const r of recs) readWrite(file, r, state, into);
  for (const [node, b] of beats) heartbeatBoundaries(file, node, b, into);
  for (const [version, ev] of versions) into.observations.push({ kind: 'version', version, evidence: ev });
  if (state.metadataWrites) {
    into.problems.push({
      code: 'metadata-level',
      severity: 'info',
      message: `${state.metadataWrites} writes by the controllers to Nodes and Pods are logged at Metadata level: what they changed (taints, conditions) is not in the log, only that they wrote`,
      position: { file, line: 1, column: 1 },
    });
  }
  if (!beats.size && (metadataOnly || bodies)) {
    into.problems.push({
      code: 'no-heartbeats',
      severity: 'warning',
      message: "no Lease renewals or node status writes by kubelets in this audit log: the kubelets' liveness is unknown (the policy may drop them)",
      position: { file, line: 1, column: 1 },
    });
  }
  return count;
}

interface WriteState {
  taints: Map<string, Set<string>>;
  ready: Map<string, string>;
  leader: string | undefined;
  metadataWrites: number;
}

function readWrite(file: string, r: Rec, s: WriteState, into: ImportResult): void {
  const e = r.e;
  const ref = obj(e.objectRef);
  const resource = str(ref.resource);
  const verb = str(e.verb);
  const actor = actorOf(str(obj(e.user).username), str(e.userAgent));
  const body = obj(e.responseObject ?? e.requestObject);
  const request = obj(e.requestObject);
  const hasBody = e.requestObject !== undefined || e.responseObject !== undefined;
  const ev = evidenceOf(
    file,
    r.n,
    `${formatTime(r.t)} ${verb} ${resource}${ref.subresource ? '/' + str(ref.subresource) : ''} ${ref.namespace ? str(ref.namespace) + '/' : ''}${str(ref.name)} by ${str(obj(e.user).username)} (${str(e.level)})`,
    'audit-log',
  );
  const name = str(ref.name) || str(obj(body.metadata).name);
  const ns = str(ref.namespace);

  if (resource === 'leases') {
    if (ns !== 'kube-system' || name !== 'kube-controller-manager') return;
    const holder = str(obj(body.spec).holderIdentity) || str(obj(request.spec).holderIdentity);
    if (!holder) return;
    if (s.leader !== undefined && holder !== s.leader) into.observations.push({ kind: 'restart', time: r.t, identity: holder, evidence: ev });
    s.leader = holder;
    return;
  }
  if (resource === 'nodes') {
    if (verb === 'delete') {
      if (actor.kind === 'other') into.observations.push({ kind: 'delete', time: r.t, ref: `Node/${name}`, by: actor.name, evidence: ev });
      return;
    }
    if (!hasBody) {
      if (actor.kind === 'node-controller') s.metadataWrites++;
      return;
    }
    const spec = obj(body.spec);
    if (Array.isArray(spec.taints) || obj(request.spec).taints !== undefined) {
      const list = (Array.isArray(spec.taints) ? spec.taints : (obj(request.spec).taints ?? [])) as unknown[];
      const now = new Set(list.map((x) => `${str(obj(x).key)}${obj(x).value ? '=' + str(obj(x).value) : ''}:${str(obj(x).effect)}`));
      const before = s.taints.get(name);
      if (before) {
        for (const t of now) if (!before.has(t)) taintChange(true, t, name, r.t, actor, ev, into);
        for (const t of before) if (!now.has(t)) taintChange(false, t, name, r.t, actor, ev, into);
      } else if (actor.kind === 'node-controller') {
        for (const t of now) taintChange(true, t, name, r.t, actor, ev, into);
      }
      s.taints.set(name, now);
    }
    const conditions = obj(body.status).conditions;
    if (Array.isArray(conditions)) {
      const ready = conditions.map(obj).find((c) => c.type === 'Ready');
      if (ready) {
        const status = str(ready.status);
        const was = s.ready.get(name);
        if (status !== was) {
          if (actor.kind === 'node-controller' && status === 'Unknown') {
            into.decisions.push({ time: r.t, controller: 'node-lifecycle', action: 'NodeStatusUnknown', object: `Node/${name}`, evidence: ev });
          } else if (actor.kind === 'kubelet') {
            into.observations.push({ kind: 'condition', time: r.t, node: name, type: 'Ready', status, reason: str(ready.reason), evidence: ev });
          }
        }
        s.ready.set(name, status);
      }
    }
    return;
  }
  if (resource === 'pods') {
    const podRef = `Pod/${ns}/${name}`;
    if (verb === 'delete') {
      if (actor.kind === 'node-controller' || actor.kind === 'taint-eviction') {
        into.decisions.push({ time: r.t, controller: 'taint-eviction', action: 'PodEvicted', object: podRef, evidence: ev });
      } else if (actor.kind === 'replicaset') {
        const owner = ownerOf(body);
        if (owner)
          into.decisions.push({ time: r.t, controller: 'replicaset', action: 'PodsDeleted', object: `ReplicaSet/${ns}/${owner}`, detail: name, evidence: ev });
      } else if (actor.kind === 'other') {
        into.observations.push({ kind: 'delete', time: r.t, ref: podRef, by: actor.name, evidence: ev });
      }
      return;
    }
    if (verb === 'create' && actor.kind === 'replicaset') {
      const owner = ownerOf(body) ?? (str(obj(body.metadata).generateName).replace(/-$/, '') || undefined);
      if (owner)
        into.decisions.push({
          time: r.t,
          controller: 'replicaset',
          action: 'PodsCreated',
          object: `ReplicaSet/${ns}/${owner}`,
          detail: str(obj(body.metadata).name) || undefined,
          evidence: ev,
        });
      return;
    }
    if (str(ref.subresource) === 'status' && actor.kind === 'node-controller') {
      into.decisions.push({ time: r.t, controller: 'node-lifecycle', action: 'PodsMarkedNotReady', object: podRef, evidence: ev });
    }
    return;
  }
  if (resource === 'replicasets' && actor.kind === 'other' && (verb === 'update' || verb === 'patch')) {
    const replicas = obj(request.spec).replicas;
    if (typeof replicas === 'number')
      into.observations.push({ kind: 'scale', time: r.t, replicaSet: `ReplicaSet/${ns}/${name}`, replicas, by: actor.name, evidence: ev });
  }
}

function ownerOf(body: Json): string | undefined {
  const refs = obj(body.metadata).ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  const rs = refs.map(obj).find((o) => o.kind === 'ReplicaSet');
  return rs ? str(rs.name) : undefined;
}

function taintChange(added: boolean, taint: string, node: string, t: Micros, actor: Actor, ev: Evidence, into: ImportResult): void {
  const eq = taint.indexOf('=');
  const colon = taint.lastIndexOf(':');
  const key = eq >= 0 ? taint.slice(0, eq) : taint.slice(0, colon);
  const effect = taint.slice(colon + 1);
  if (actor.kind === 'node-controller') {
    into.decisions.push({
      time: t,
      controller: 'node-lifecycle',
      action: added ? 'TaintAdded' : 'TaintRemoved',
      object: `Node/${node}`,
      detail: `${key}:${effect}`,
      evidence: ev,
    });
  } else if (actor.kind === 'other') {
    const value = eq >= 0 ? taint.slice(eq + 1, colon) : undefined;
    into.observations.push({ kind: added ? 'taint' : 'untaint', time: t, node, key, value, effect, by: actor.name, evidence: ev });
  }
}

function heartbeatBoundaries(file: string, node: string, b: Beats, into: ImportResult): void {
  const emit = (at: { t: Micros; n: number }, what: string, mark: 'first' | 'stop' | 'resume' | 'last') =>
    into.observations.push({
      kind: 'heartbeat',
      time: at.t,
      node,
      via: b.via,
      mark,
      evidence: evidenceOf(
        file,
        at.n,
        `${what}: ${b.via === 'lease' ? 'Lease renewal' : 'node status write'} by system:node:${node} at ${formatTime(at.t)}`,
        'audit-log',
      ),
    });
  emit(b.first, 'first heartbeat in the log', 'first');
  for (const g of b.gaps) {
    emit(g.stop, 'last heartbeat before a silence', 'stop');
    emit(g.resume, 'heartbeats resume', 'resume');
  }
  if (b.last !== b.first) emit(b.last, 'last heartbeat in the log', 'last');
}

function warn(code: string, file: string, line: number, message: string): Problem {
  return { code, severity: 'warning', message, position: { file, line, column: 1 } };
}
