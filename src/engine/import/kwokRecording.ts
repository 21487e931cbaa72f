/**
 * KWOK recordings (`kwokctl snapshot record`, `kwokctl snapshot export
 * --record`, `kectl snapshot record`): a YAML stream (`---` between
 * documents, sigs.k8s.io/kwok/pkg/utils/yaml Encoder) of the cluster's
 * objects as they were when recording started, then one ResourcePatch a
 * change, in time order:
 * - `action.kwok.x-k8s.io/v1alpha1` (sigs.k8s.io/kwok/pkg/apis/action/v1alpha1,
 *   resource_patch_types.go): `resource` {group, version, resource},
 *   `target` {name, namespace}, `durationNanosecond` (since the recording
 *   started), `method` create|patch|delete, `template` (the object for
 *   create, a strategic merge patch for patch);
 * - the older `kwok.x-k8s.io/internal` (pkg/kwokctl/recording, 2023):
 *   `target` {type: {group, version, resource}, name, namespace},
 *   `durationNanosecond`, `create`/`delete` flags and `patch`.
 * Times inside objects may be written `$(time-offset-nanosecond N)`
 * (pkg/kwokctl/recording/time.go, ReplaceTimeToRelative, used by export):
 * N nanoseconds after the recording started. The start itself is in no
 * field: it is --at (or the import's clock, with a warning).
 *
 * A recording names no writer, so who made a change is read from what
 * changed: Ready going Unknown and the not-ready/unreachable taints are
 * the node lifecycle controller's (only it writes them); other Ready
 * changes, status heartbeats and Lease renewals are the kubelet's (KWOK's
 * stand-in); other taints, deletions and replica counts are the user's. A
 * pod deleted while its node carries a NoExecute taint it does not tolerate
 * for ever (the controller's not-ready or unreachable one, or a user's) is
 * taken as the taint eviction controller's deletion.
 */
import { parse } from 'yaml';
import { formatTime, formatDuration, type Micros } from '../model/time';
import type { KObject } from '../model/types';
import type { Line } from './lines';
import { HEARTBEAT_GAP } from './auditLog';
import { evidenceOf, type Evidence, type ImportResult } from './types';
import type { ImportOptions } from './options';
import { YAML_OPTIONS, yamlErrorText } from '../snapshot/yamlOptions';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export const KWOK_MARKER = /^(apiVersion:\s*(action\.)?kwok\.x-k8s\.io\/|kind:\s*ResourcePatch\s*$|durationNanosecond:)|\$\(time-offset-nanosecond -?\d+\)/;
/** A document longer than this is left out (a Kubernetes object is at most 1.5 MiB in etcd). */
const MAX_DOCUMENT_CHARS = 8 * 1024 * 1024;
const CONTROLLER_TAINTS = /^node\.kubernetes\.io\/(unreachable|not-ready)$/;
const WRITER = 'a KWOK recording (the writer is not recorded)';

interface Change {
  t: Micros;
  method: 'create' | 'patch' | 'delete';
  resource: string;
  namespace: string;
  name: string;
  body: Json;
  line: number;
  text: string;
}

/** `$(time-offset-nanosecond N)` as RFC 3339 from the recording's start, to microseconds. */
export function revertTimeOffsets(text: string, start: Micros): string {
  return text.replace(/\$\(time-offset-nanosecond (-?\d+)\)/g, (_, n: string) => formatTime(start + Math.trunc(Number(n) / 1000)));
}

export function importKwokRecording(file: string, lines: Iterable<Line>, options: ImportOptions, into: ImportResult): number {
  const start = options.anchor ?? 0;
  if (!options.anchorGiven) {
    into.problems.push({
      code: 'anchor-assumed',
      severity: 'warning',
      message: `a KWOK recording's times count from when recording started, which it does not say: taken as ${formatTime(start)} (the import's clock); give --at`,
      position: { file, line: 1, column: 1 },
    });
  }
  const objects = new Map<string, Json>();
  const state = new RecordingState(file, into);
  let doc: Line[] = [];
  let docChars = 0;
  let count = 0;
  let patches = 0;
  let lastT = -Infinity;
  const flush = () => {
    if (!doc.length) return;
    const first = doc[0];
    const lines = doc;
    doc = [];
    if (docChars > MAX_DOCUMENT_CHARS) {
      into.problems.push(warn('too-long', file, first.n, `a document of more than ${MAX_DOCUMENT_CHARS / (1024 * 1024)} Mi characters: left out`));
      return;
    }
    const text = revertTimeOffsets(lines.map((l) => l.text).join('\n'), start);
    if (!text.trim() || lines.every((l) => /^\s*(#.*)?$/.test(l.text))) return;
    let value: unknown;
    try {
      value = parse(text, { ...YAML_OPTIONS, maxAliasCount: 100 });
    } catch (e) {
      const m = /at line (\d+), column (\d+)/.exec(e instanceof Error ? e.message : '');
      into.problems.push({
        code: 'yaml-syntax',
        severity: 'warning',
        message: `not YAML (${yamlErrorText(e instanceof Error ? e.message : String(e))}): this document is left out`,
        position: { file, line: first.n + (m ? Number(m[1]) - 1 : 0), column: m ? Number(m[2]) : 1 },
      });
      return;
    }
    const d = obj(value);
    if (d.kind === 'ResourcePatch') {
      const change = changeOf(d, start, first.n, lines.find((l) => /^durationNanosecond:/.test(l.text))?.text ?? first.text);
      if (typeof change === 'string') {
        into.problems.push(warn('bad-patch', file, first.n, change));
        return;
      }
      patches++;
      if (change.t < lastT)
        into.problems.push(
          warn('out-of-order', file, first.n, `${formatDuration(lastT - change.t)} earlier than the change before it: applied in the order written`),
        );
      lastT = Math.max(lastT, change.t);
      state.apply(change, objects);
      return;
    }
    if (typeof d.kind !== 'string' || typeof obj(d.metadata).name !== 'string') {
      into.problems.push(warn('unknown-kind', file, first.n, 'a document that is neither a Kubernetes object nor a ResourcePatch: left out'));
      return;
    }
    state.seed(
      d,
      start,
      evidenceOf(
        file,
        first.n,
        `${d.kind} ${str(obj(d.metadata).namespace) ? `${str(obj(d.metadata).namespace)}/` : ''}${str(obj(d.metadata).name)} (the recording's snapshot)`,
        'kwok-recording',
      ),
      objects,
    );
  };
  for (const line of lines) {
    count = line.n;
    if (/^---\s*$/.test(line.text) || /^\.\.\.\s*$/.test(line.text)) {
      flush();
      docChars = 0;
      continue;
    }
    if (docChars <= MAX_DOCUMENT_CHARS) doc.push(line);
    docChars += line.text.length + 1;
  }
  flush();
  state.finish(lastT);
  if (!patches)
    into.problems.push({
      code: 'no-changes',
      severity: 'info',
      message: 'no ResourcePatch in this KWOK recording: only the cluster as it was (kwokctl snapshot record --snapshot)',
      position: { file, line: 1, column: 1 },
    });
  return count;
}

function changeOf(d: Json, start: Micros, line: number, text: string): Change | string {
  const ns = d.durationNanosecond;
  if (typeof ns !== 'number' || !Number.isFinite(ns)) return 'a ResourcePatch without a number in durationNanosecond: left out';
  const t = start + Math.trunc(ns / 1000);
  const internal = /^kwok\.x-k8s\.io\/internal$/.test(str(d.apiVersion));
  const target = obj(d.target);
  const gvr = obj(internal ? target.type : d.resource);
  const resource = str(gvr.resource);
  const name = str(target.name);
  if (!resource || !name) return 'a ResourcePatch without its resource or target name: left out';
  let method: Change['method'];
  let body: unknown;
  if (internal) {
    method = d.delete === true ? 'delete' : d.create === true ? 'create' : 'patch';
    body = d.patch;
  } else {
    const m = str(d.method);
    if (m !== 'create' && m !== 'patch' && m !== 'delete')
      return `a ResourcePatch whose method is ${JSON.stringify(d.method)}, not create, patch or delete: left out`;
    method = m;
    body = d.template;
  }
  // a raw JSON template may come as a string
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return 'a ResourcePatch whose template is not JSON: left out';
    }
  }
  return {
    t,
    method,
    resource,
    namespace: str(target.namespace),
    name,
    body: obj(body),
    line,
    text: `${formatTime(t)} ${method} ${resource} ${target.namespace ? `${str(target.namespace)}/` : ''}${name} (${text.trim()})`,
  };
}

/**
 * A strategic merge patch as the recorder writes them (CreateTwoWayMergePatch):
 * mappings merge, null removes a key, lists of conditions merge by `type`,
 * `$patch: delete` in an element removes it, `$setElementOrder/…` and
 * `$retainKeys` are directives, not fields; any other list is replaced.
 */
export function applyPatch(target: Json, patch: Json): Json {
  const out: Json = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$setElementOrder/') || k === '$retainKeys' || k === '$patch') continue;
    if (v === null) delete out[k];
    else if (Array.isArray(v) && Array.isArray(out[k]) && MERGE_KEYS[k]) out[k] = mergeList(out[k] as unknown[], v, MERGE_KEYS[k]);
    else if (Array.isArray(v)) out[k] = v.filter((e) => obj(e).$patch !== 'delete');
    else if (typeof v === 'object' && typeof out[k] === 'object' && out[k] !== null && !Array.isArray(out[k])) out[k] = applyPatch(out[k] as Json, v as Json);
    else out[k] = v;
  }
  return out;
}

/** patchMergeKey of the list fields the controllers read (k8s.io/api/core/v1 types.go). */
const MERGE_KEYS: Record<string, string> = { conditions: 'type', addresses: 'type', containers: 'name', ownerReferences: 'uid' };

function mergeList(base: unknown[], patch: unknown[], key: string): unknown[] {
  const out = base.map((e) => obj(e));
  for (const p of patch.map(obj)) {
    const i = out.findIndex((e) => e[key] === p[key]);
    if (p.$patch === 'delete') {
      if (i >= 0) out.splice(i, 1);
      continue;
    }
    if (i >= 0) out[i] = applyPatch(out[i], p);
    else out.push(p);
  }
  return out;
}

const keyOf = (resource: string, namespace: string, name: string) => `${resource}/${namespace}/${name}`;
const taintsOf = (node: Json): Set<string> =>
  new Set(((obj(node.spec).taints ?? []) as unknown[]).map(obj).map((t) => `${str(t.key)}${t.value ? `=${str(t.value)}` : ''}:${str(t.effect)}`));
const readyOf = (node: Json): Json | undefined => ((obj(node.status).conditions ?? []) as unknown[]).map(obj).find((c) => c.type === 'Ready');

interface Beats {
  via: 'lease' | 'status';
  first: { t: Micros; ev: Evidence };
  last: { t: Micros; ev: Evidence };
  gaps: { stop: { t: Micros; ev: Evidence }; resume: { t: Micros; ev: Evidence } }[];
}

class RecordingState {
  private readonly beats = new Map<string, Beats>();
  constructor(
    private readonly file: string,
    private readonly into: ImportResult,
  ) {}

  /** An object of the recording's snapshot: as it was at the start. */
  seed(d: Json, start: Micros, ev: Evidence, objects: Map<string, Json>): void {
    const m = obj(d.metadata);
    const resource = RESOURCE_OF[str(d.kind)];
    if (!resource) return;
    objects.set(keyOf(resource, str(m.namespace), str(m.name)), d);
    if (d.kind === 'Node' || d.kind === 'Pod' || d.kind === 'ReplicaSet' || d.kind === 'DaemonSet')
      this.into.observations.push({ kind: 'object', time: start, object: d as KObject, evidence: ev });
    if (d.kind === 'Node') {
      this.into.observations.push({ kind: 'node-seen', node: str(m.name), evidence: ev });
      const v = /^v(1\.\d+)/.exec(str(obj(obj(d.status).nodeInfo).kubeletVersion));
      if (v) this.into.observations.push({ kind: 'version', version: v[1], evidence: ev });
    }
    if (d.kind === 'Pod' && str(obj(d.spec).nodeName))
      this.into.observations.push({
        kind: 'pod-on-node',
        pod: `Pod/${str(m.namespace) || 'default'}/${str(m.name)}`,
        node: str(obj(d.spec).nodeName),
        evidence: ev,
      });
  }

  apply(c: Change, objects: Map<string, Json>): void {
    const key = keyOf(c.resource, c.namespace, c.name);
    const before = objects.get(key);
    const ev = evidenceOf(this.file, c.line, c.text, 'kwok-recording');
    if (c.method === 'delete') {
      objects.delete(key);
      this.deleted(c, before, objects, ev);
      return;
    }
    const after = c.method === 'create' || !before ? c.body : applyPatch(before, c.body);
    objects.set(key, after);
    if (c.resource === 'nodes') this.node(c, before, after, ev);
    else if (c.resource === 'leases' && c.namespace === 'kube-node-lease') {
      if (str(obj(after.spec).renewTime) !== str(obj(before?.spec).renewTime)) this.beat(c.name, 'lease', c.t, ev);
    } else if (c.resource === 'pods') this.pod(c, before, after, objects, ev);
    else if (c.resource === 'replicasets' && before) {
      const r = obj(after.spec).replicas;
      if (typeof r === 'number' && r !== obj(before.spec).replicas)
        this.into.observations.push({ kind: 'scale', time: c.t, replicaSet: `ReplicaSet/${c.namespace}/${c.name}`, replicas: r, by: WRITER, evidence: ev });
    }
  }

  private node(c: Change, before: Json | undefined, after: Json, ev: Evidence): void {
    const was = before ? taintsOf(before) : new Set<string>();
    const now = taintsOf(after);
    for (const t of now) if (!was.has(t)) this.taint(true, t, c, ev);
    for (const t of was) if (!now.has(t)) this.taint(false, t, c, ev);
    const r0 = before ? readyOf(before) : undefined;
    const r1 = readyOf(after);
    if (!r1) return;
    if (str(r1.status) !== str(r0?.status)) {
      if (r1.status === 'Unknown')
        this.into.decisions.push({ time: c.t, controller: 'node-lifecycle', action: 'NodeStatusUnknown', object: `Node/${c.name}`, evidence: ev });
      else if (before)
        this.into.observations.push({
          kind: 'condition',
          time: c.t,
          node: c.name,
          type: 'Ready',
          status: str(r1.status),
          reason: str(r1.reason),
          evidence: ev,
        });
    }
    if (r1.status !== 'Unknown' && str(r1.lastHeartbeatTime) && str(r1.lastHeartbeatTime) !== str(r0?.lastHeartbeatTime)) this.beat(c.name, 'status', c.t, ev);
  }

  private taint(added: boolean, taint: string, c: Change, ev: Evidence): void {
    const colon = taint.lastIndexOf(':');
    const eq = taint.indexOf('=');
    const key = eq >= 0 && eq < colon ? taint.slice(0, eq) : taint.slice(0, colon);
    const effect = taint.slice(colon + 1);
    if (CONTROLLER_TAINTS.test(key)) {
      this.into.decisions.push({
        time: c.t,
        controller: 'node-lifecycle',
        action: added ? 'TaintAdded' : 'TaintRemoved',
        object: `Node/${c.name}`,
        detail: `${key}:${effect}`,
        evidence: ev,
      });
    } else {
      this.into.observations.push({
        kind: added ? 'taint' : 'untaint',
        time: c.t,
        node: c.name,
        key,
        value: eq >= 0 && eq < colon ? taint.slice(eq + 1, colon) : undefined,
        effect,
        by: WRITER,
        evidence: ev,
      });
    }
  }

  private pod(c: Change, before: Json | undefined, after: Json, objects: Map<string, Json>, ev: Evidence): void {
    const ref = `Pod/${c.namespace || 'default'}/${c.name}`;
    const node = str(obj(after.spec).nodeName);
    if (node && node !== str(obj(before?.spec).nodeName)) this.into.observations.push({ kind: 'pod-on-node', pod: ref, node, evidence: ev });
    if (!before) {
      const owner = ((obj(after.metadata).ownerReferences ?? []) as unknown[]).map(obj).find((o) => o.kind === 'ReplicaSet');
      if (owner)
        this.into.decisions.push({
          time: c.t,
          controller: 'replicaset',
          action: 'PodsCreated',
          object: `ReplicaSet/${c.namespace || 'default'}/${str(owner.name)}`,
          detail: c.name,
          evidence: ev,
        });
      return;
    }
    const r0 = ((obj(before.status).conditions ?? []) as unknown[]).map(obj).find((x) => x.type === 'Ready');
    const r1 = ((obj(after.status).conditions ?? []) as unknown[]).map(obj).find((x) => x.type === 'Ready');
    const nodeObj = node ? objects.get(keyOf('nodes', '', node)) : undefined;
    if (r0?.status === 'True' && r1?.status === 'False' && nodeObj && readyOf(nodeObj)?.status === 'Unknown') {
      this.into.decisions.push({ time: c.t, controller: 'node-lifecycle', action: 'PodsMarkedNotReady', object: ref, evidence: ev });
    }
  }

  private deleted(c: Change, before: Json | undefined, objects: Map<string, Json>, ev: Evidence): void {
    if (c.resource === 'nodes') {
      this.into.observations.push({ kind: 'delete', time: c.t, ref: `Node/${c.name}`, by: WRITER, evidence: ev });
      return;
    }
    if (c.resource !== 'pods') return;
    const ref = `Pod/${c.namespace || 'default'}/${c.name}`;
    const node = before ? objects.get(keyOf('nodes', '', str(obj(before.spec).nodeName))) : undefined;
    // a NoExecute taint the pod does not tolerate (for ever) is why the taint eviction controller deletes it
    const tolerations = ((obj(before?.spec).tolerations ?? []) as unknown[]).map(obj);
    const evicting =
      node &&
      ((obj(node.spec).taints ?? []) as unknown[])
        .map(obj)
        .some(
          (t) =>
            t.effect === 'NoExecute' &&
            !tolerations.some(
              (o) =>
                o.tolerationSeconds === undefined &&
                (o.effect === undefined || o.effect === 'NoExecute') &&
                (o.key === undefined ? o.operator === 'Exists' : o.key === t.key && (o.operator === 'Exists' || str(o.value) === str(t.value))),
            ),
        );
    if (evicting) this.into.decisions.push({ time: c.t, controller: 'taint-eviction', action: 'PodEvicted', object: ref, evidence: ev });
    else this.into.observations.push({ kind: 'delete', time: c.t, ref, by: WRITER, evidence: ev });
  }

  private beat(node: string, via: 'lease' | 'status', t: Micros, ev: Evidence): void {
    const at = { t, ev };
    const b = this.beats.get(node);
    if (!b) this.beats.set(node, { via, first: at, last: at, gaps: [] });
    else if (t > b.last.t) {
      if (t - b.last.t > HEARTBEAT_GAP) b.gaps.push({ stop: b.last, resume: at });
      b.last = at;
    }
  }

  /** `end`: the recording's last change; heartbeats that end well before it stopped (the recording went on without them) */
  finish(end: Micros): void {
    for (const [node, b] of this.beats) {
      const emit = (at: { t: Micros; ev: Evidence }, mark: 'first' | 'stop' | 'resume' | 'last') =>
        this.into.observations.push({ kind: 'heartbeat', time: at.t, node, via: b.via, mark, evidence: at.ev });
      emit(b.first, 'first');
      for (const g of b.gaps) {
        emit(g.stop, 'stop');
        emit(g.resume, 'resume');
      }
      if (end - b.last.t > HEARTBEAT_GAP) emit(b.last, 'stop');
      else if (b.last !== b.first) emit(b.last, 'last');
    }
  }
}

const RESOURCE_OF: Record<string, string> = { Node: 'nodes', Pod: 'pods', ReplicaSet: 'replicasets', Lease: 'leases', DaemonSet: 'daemonsets' };

function warn(code: string, file: string, line: number, message: string) {
  return { code, severity: 'warning' as const, message, position: { file, line, column: 1 } };
}
