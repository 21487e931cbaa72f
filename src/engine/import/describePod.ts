/**
 * `kubectl describe pod` text (k8s.io/kubectl/pkg/describe, PodDescriber,
 * describePod): `Name:`, `Namespace:`, `Node: NAME/IP` (or `<none>`),
 * `Status:` (the phase, or `Terminating (lasts AGE)` once deletionTimestamp
 * is set, followed by `Termination Grace Period: Ns`), `Controlled By:
 * Kind/name`, the `Conditions:` table (Type, Status), `Tolerations:`
 * (printTolerationsMultiline: `key[=value][:effect][ op=Exists][ for Ns]`,
 * one a line, `<none>` when there are none) and the `Events:` table (Type,
 * Reason, Age, From, Message, as for a node).
 *
 * What it gives: the pod as an object (its node, phase, Ready condition,
 * owner and, above all, its tolerations with their tolerationSeconds, which
 * set when the taint eviction controller deletes it), and the decisions its
 * Events record. A pod that is Terminating with `DisruptionTarget True` and
 * a NodeNotReady event was deleted by the taint eviction controller: at the
 * printing time less the `lasts` age less the grace period (the API server
 * sets deletionTimestamp to the deletion time plus the grace period).
 */
import { formatTime, seconds, type Micros } from '../model/time';
import type { KObject } from '../model/types';
import type { Line } from './lines';
import { meaningOf } from './eventReasons';
import { addMeaning } from './meaning';
import { parseAge } from './eventsTable';
import { anchorProblem, EventsTable, parseRfc1123z } from './describeText';
import { evidenceOf, type Evidence, type ImportResult } from './types';
import type { ImportOptions } from './options';

interface Toleration {
  key?: string;
  operator: 'Exists' | 'Equal';
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

/**
 * One toleration as printTolerationsMultilineWithIndent prints it; undefined
 * when the text is not one. Without `op=Exists` the operator is Equal (an
 * Exists toleration with a value cannot be written).
 */
export function parseToleration(text: string): Toleration | undefined {
  // an empty key is printed as nothing: `op=Exists` alone tolerates everything
  const m =
    /^(?!op=)([^=:\s]*)(?:=([^:\s]*))?(?::(NoSchedule|PreferNoSchedule|NoExecute))?(?:\s*op=Exists)?(?: for (\d+)s)?$/.exec(text.trim()) ??
    /^()()()op=Exists(?: for (\d+)s)?$/.exec(text.trim());
  if (!m || !text.trim()) return undefined;
  const t: Toleration = { operator: /op=Exists/.test(text) ? 'Exists' : 'Equal' };
  if (m[1]) t.key = m[1];
  if (m[2]) t.value = m[2];
  if (m[3]) t.effect = m[3];
  if (m[4] !== undefined) t.tolerationSeconds = Number(m[4]);
  return t;
}

interface PodBlock {
  name: string;
  namespace: string;
  nameLine: Line;
  node?: string;
  phase?: string;
  /** `Terminating (lasts AGE)`: the age */
  lasts?: { age: number; line: Line };
  grace?: number;
  owner?: { kind: string; name: string };
  conditions: Map<string, { status: string; line: Line }>;
  tolerations: Toleration[];
  tolerationsNone: boolean;
  startTime?: Micros;
  nodeNotReady: boolean;
}

export function importDescribePod(file: string, lines: Iterable<Line>, options: ImportOptions, into: ImportResult): number {
  let pod: PodBlock | undefined;
  let section = '';
  let events = new EventsTable();
  let count = 0;
  let warnedAnchor = false;
  const ev = (l: Line): Evidence => evidenceOf(file, l.n, l.text, 'describe-pod');
  const anchorFor = (l: Line): Micros | undefined => {
    if (options.anchor === undefined) return undefined;
    if (!options.anchorGiven && !warnedAnchor) {
      warnedAnchor = true;
      into.problems.push(anchorProblem({ ...options, anchor: options.anchor }, 'ages', file, l));
    }
    return options.anchor;
  };
  const finish = () => {
    if (!pod) return;
    finishPod(file, pod, options, into, anchorFor);
    pod = undefined;
  };
  let pendingName: Line | undefined;
  for (const line of lines) {
    count = line.n;
    const text = line.text;
    const name = /^Name:\s+(\S+)\s*$/.exec(text);
    if (name) {
      finish();
      pendingName = line;
      section = '';
      events = new EventsTable();
      continue;
    }
    if (pendingName) {
      const ns = /^Namespace:\s+(\S+)\s*$/.exec(text);
      if (ns) {
        pod = {
          name: /^Name:\s+(\S+)/.exec(pendingName.text)![1],
          namespace: ns[1],
          nameLine: pendingName,
          conditions: new Map(),
          tolerations: [],
          tolerationsNone: false,
          nodeNotReady: false,
        };
      }
      pendingName = undefined;
    }
    if (!pod) continue;
    const top = /^([A-Z][A-Za-z -]*):(?:\s+(.*))?$/.exec(text);
    if (top) {
      section = top[1];
      const value = (top[2] ?? '').trim();
      switch (section) {
        case 'Node':
          if (value && value !== '<none>') pod.node = value.split('/')[0];
          break;
        case 'Start Time':
          pod.startTime = parseRfc1123z(value);
          break;
        case 'Status': {
          const t = /^Terminating \(lasts (\S+)\)$/.exec(value);
          if (t) {
            const age = parseAge(t[1]);
            if (age !== undefined) pod.lasts = { age, line };
          } else if (value) pod.phase = value;
          break;
        }
        case 'Termination Grace Period': {
          const g = /^(\d+)s$/.exec(value);
          if (g) pod.grace = Number(g[1]);
          break;
        }
        case 'Controlled By': {
          const o = /^([A-Za-z]+)\/(\S+)$/.exec(value);
          if (o) pod.owner = { kind: o[1], name: o[2] };
          break;
        }
        case 'Tolerations':
          tolerationLine(pod, value, file, line, into);
          break;
      }
      continue;
    }
    if (section === 'Tolerations' && /^\s+\S/.test(text)) {
      tolerationLine(pod, text.trim(), file, line, into);
    } else if (section === 'Conditions') {
      const m = /^\s+(\w+)\s+(True|False|Unknown)\b/.exec(text);
      if (m) pod.conditions.set(m[1], { status: m[2], line });
    } else if (section === 'Events') {
      const row = events.read(text);
      if (!row) continue;
      const { reason, age } = row;
      if (reason === 'NodeNotReady') pod.nodeNotReady = true;
      const anchor = anchorFor(line);
      if (age === undefined || anchor === undefined) continue;
      addMeaning(
        meaningOf({ reason, kind: 'Pod', namespace: pod.namespace, name: pod.name, message: row.message, component: row.from.replace(/,.*$/, '') }),
        anchor - age,
        ev(line),
        into,
      );
      // the event names the pod, not its node: say where it ran
      if (pod.node && reason === 'NodeNotReady')
        into.observations.push({ kind: 'pod-on-node', pod: `Pod/${pod.namespace}/${pod.name}`, node: pod.node, evidence: ev(line) });
    }
  }
  finish();
  return count;
}

function tolerationLine(pod: PodBlock, text: string, file: string, line: Line, into: ImportResult): void {
  if (!text) return;
  if (text === '<none>') {
    pod.tolerationsNone = true;
    return;
  }
  const t = parseToleration(text);
  if (t) pod.tolerations.push(t);
  else
    into.problems.push({
      code: 'bad-toleration',
      severity: 'warning',
      message: `not a toleration as kubectl describe prints one (key[=value][:effect][ op=Exists][ for Ns]): "${text.length > 80 ? `${text.slice(0, 77)}...` : text}"; left out`,
      position: { file, line: line.n, column: line.text.indexOf(text) + 1 },
    });
}

function finishPod(file: string, pod: PodBlock, options: ImportOptions, into: ImportResult, anchorFor: (l: Line) => Micros | undefined): void {
  const ref = `Pod/${pod.namespace}/${pod.name}`;
  const ev = evidenceOf(file, pod.nameLine.n, pod.nameLine.text, 'describe-pod');
  if (pod.node) {
    into.observations.push({ kind: 'pod-on-node', pod: ref, node: pod.node, evidence: ev });
    into.observations.push({ kind: 'node-seen', node: pod.node, evidence: ev });
  }
  // the scenario starts before the failure the text shows the end of: a pod that lost its node was Ready then
  const printed = pod.conditions.get('Ready')?.status;
  const ready = pod.lasts || pod.nodeNotReady ? 'True' : printed;
  const start = pod.startTime ?? options.anchor ?? 0;
  const object: KObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: pod.name,
      namespace: pod.namespace,
      creationTimestamp: formatTime(start),
      ...(pod.owner
        ? {
            ownerReferences: [
              { apiVersion: pod.owner.kind === 'ReplicaSet' ? 'apps/v1' : 'v1', kind: pod.owner.kind, name: pod.owner.name, uid: '', controller: true },
            ],
          }
        : {}),
    },
    spec: {
      ...(pod.node ? { nodeName: pod.node } : {}),
      ...(pod.tolerations.length ? { tolerations: pod.tolerations } : {}),
    },
    status: {
      phase: pod.phase ?? 'Running',
      ...(ready ? { conditions: [{ type: 'Ready', status: ready, lastTransitionTime: formatTime(start) }] } : {}),
    },
  } as KObject;
  into.observations.push({ kind: 'object', time: start, object, evidence: ev });
  if (!pod.lasts) return;
  const anchor = anchorFor(pod.lasts.line);
  if (anchor === undefined) return;
  const deleted = anchor - pod.lasts.age - seconds(pod.grace ?? 30);
  const disruption = pod.conditions.get('DisruptionTarget');
  if (disruption?.status === 'True' && pod.nodeNotReady) {
    into.decisions.push({
      time: deleted,
      controller: 'taint-eviction',
      action: 'PodEvicted',
      object: ref,
      evidence: evidenceOf(
        file,
        pod.lasts.line.n,
        `${pod.lasts.line.text.trim()} (deleted at ${formatTime(deleted)}: DisruptionTarget True on a pod whose node was not ready)`,
        'describe-pod',
      ),
    });
  }
}
