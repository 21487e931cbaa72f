/**
 * The kube-controller-manager log lines that record a decision, one row per
 * upstream log call: the printf wording (glog/klog, to 1.20) and the
 * structured one (klog.InfoS 1.21–1.25, contextual `logger.Info` 1.26+),
 * with what each means in the trace's vocabulary. All in kubernetes/kubernetes.
 */
import type { Action, ControllerName } from '../trace/decision';
import type { KlogLine } from './klogLine';

export type KlogFinding =
  | { decision: { controller: ControllerName; action: Action; object: string; detail?: string }; times?: number }
  | { event: { kind: string; namespace: string; name: string; reason: string; message: string } }
  | { leader: string }
  | { healthy: string }
  /** understood, but not a decision the trace records (e.g. "Made sure that Node x has no [] Taint") */
  | { noted: string };

export type MinorRange = readonly [from: number, to: number];

const NOW = Infinity;

export interface KlogPattern {
  id: string;
  /** the upstream call and the versions that print this wording */
  upstream: string;
  printf?: RegExp;
  /** the structured message, matched exactly */
  structured?: string[];
  /**
   * The minor versions that print each wording (as `upstream` says), where the wording dates the log:
   * `printf` for the printf wording, `structured` per message. Infinity: still printed by the newest.
   */
  minors?: { printf?: MinorRange; structured?: Record<string, MinorRange> };
  read(line: KlogLine, m: RegExpExecArray | null): KlogFinding[];
}

/** `region:\x00:zone` (GetZoneKey) as the trace writes zones: `Zone/REGION/ZONE`, `Zone/ZONE`, `Zone/`. */
export function zoneObject(key: string): string {
  // eslint-disable-next-line no-control-regex -- GetZoneKey's separator is a NUL, written raw or escaped
  const parts = key.split(/:(?:\\x00|\u0000)?:/);
  if (parts.length === 2) return parts[0] ? `Zone/${parts[0]}/${parts[1]}` : `Zone/${parts[1]}`;
  return `Zone/${key}`;
}

/** Taints as printed by %+v (`&Taint{Key:k,Value:v,Effect:E,...}`) or as JSON (`{"key":"k","effect":"E"}`). */
export function taintsIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/Key:([^,}]+),Value:([^,}]*),Effect:(\w+)/g)) out.push(`${m[1]}:${m[3]}`);
  for (const m of text.matchAll(/"key":"([^"]+)"(?:,"value":"[^"]*")?,"effect":"(\w+)"/g)) out.push(`${m[1]}:${m[2]}`);
  return out;
}

const kv = (line: KlogLine, key: string): string | undefined => line.kv?.[key];
const node = (name: string) => `Node/${name}`;
const pod = (ref: string) => `Pod/${ref}`;

export const KLOG_PATTERNS: readonly KlogPattern[] = [
  {
    id: 'zone-state',
    upstream:
      'handleDisruption: glog.V(0) "NodeController detected that zone %v is now in state %v." (pkg/controller/node, 1.6–1.9); ' +
      '"Controller detected that zone %v is now in state %v." (pkg/controller/nodelifecycle, 1.10–1.20); ' +
      'InfoS/logger.Info "Controller detected that zone is now in new state" zone= newState= (1.21+)',
    printf: /^(?:Node)?Controller detected that zone (.*) is now in state (\w+)\.?$/,
    structured: ['Controller detected that zone is now in new state'],
    minors: { printf: [6, 20], structured: { 'Controller detected that zone is now in new state': [21, NOW] } },
    read: (l, m) => {
      const zone = m ? m[1] : kv(l, 'zone');
      const state = m ? m[2] : kv(l, 'newState');
      if (zone === undefined || !state) return [];
      return [{ decision: { controller: 'node-lifecycle', action: 'ZoneStateChanged', object: zoneObject(zone), detail: state } }];
    },
  },
  {
    id: 'all-zones-down',
    upstream: 'handleDisruption: "Controller detected that all Nodes are not-Ready. Entering master disruption mode." (1.8+)',
    printf: /^(?:Node)?Controller detected that all Nodes are not-Ready\. Entering master disruption mode\.?$/,
    structured: ['Controller detected that all Nodes are not-Ready. Entering master disruption mode'],
    read: () => [{ noted: 'every zone entered FullDisruption (which zones is not logged)' }],
  },
  {
    id: 'taint-queue',
    upstream:
      'monitorNodeHealth/processTaintBaseEviction: glog/klog.V(2) "Node %v is NotReady|unresponsive as of %v. Adding it to the Taint queue." (1.10–1.20); ' +
      '"Node is NotReady. Adding it to the Taint queue" / "Node is unresponsive. Adding it to the Taint queue" node= (1.21+)',
    printf: /^Node (\S+) is (?:NotReady|unresponsive) as of .*Adding it to the Taint queue\.?$/,
    structured: ['Node is NotReady. Adding it to the Taint queue', 'Node is unresponsive. Adding it to the Taint queue'],
    minors: {
      printf: [10, 20],
      structured: { 'Node is NotReady. Adding it to the Taint queue': [21, NOW], 'Node is unresponsive. Adding it to the Taint queue': [21, NOW] },
    },
    read: (l, m) => {
      const n = m ? m[1] : kv(l, 'node');
      return n ? [{ decision: { controller: 'node-lifecycle', action: 'NodeQueuedForTainting', object: node(n) } }] : [];
    },
  },
  {
    id: 'eviction-queue',
    upstream:
      'monitorNodeHealth (pod-eviction path, to 1.26): "Node %v is NotReady|unresponsive as of %v. Adding Pods on Node to eviction queue: ..." ; ' +
      '"Node is NotReady. Adding Pods on Node to eviction queue" node= (1.21–1.26)',
    printf: /^Node (\S+) is (?:NotReady|unresponsive) as of .*Adding Pods on Node to eviction queue/,
    structured: ['Node is NotReady. Adding Pods on Node to eviction queue', 'Node is unresponsive. Adding Pods on Node to eviction queue'],
    minors: {
      printf: [0, 20],
      structured: {
        'Node is NotReady. Adding Pods on Node to eviction queue': [21, 26],
        'Node is unresponsive. Adding Pods on Node to eviction queue': [21, 26],
      },
    },
    read: (l, m) => {
      const n = m ? m[1] : kv(l, 'node');
      return n ? [{ decision: { controller: 'node-lifecycle', action: 'NodeQueuedForEviction', object: node(n) } }] : [];
    },
  },
  {
    id: 'taint-added',
    upstream:
      'SwapNodeControllerTaint / AddOrUpdateTaintOnNode: klog.V(4) "Added %+v Taint to Node %v" (1.10–1.20); ' +
      'V(4) "Added taint to node" taint= node= (1.21+). Needs --v=4.',
    printf: /^Added (\[.*\]) Taint to Node (\S+)$/,
    structured: ['Added taint to node'],
    minors: { printf: [10, 20], structured: { 'Added taint to node': [21, NOW] } },
    read: (l, m) => {
      const n = m ? m[2] : kv(l, 'node');
      const list = m ? m[1] : (kv(l, 'taint') ?? kv(l, 'taints') ?? '');
      if (!n) return [];
      return taintsIn(list).map((t) => ({ decision: { controller: 'node-lifecycle' as const, action: 'TaintAdded' as const, object: node(n), detail: t } }));
    },
  },
  {
    id: 'taint-ensured-absent',
    upstream:
      'SwapNodeControllerTaint: V(4) "Made sure that Node %+v has no %v Taint" (1.10–1.20), "Made sure that node has no taint" (1.21+): ' +
      'logged whether or not the taint was there, so not a removal',
    printf: /^Made sure that Node (\S+) has no (\[.*\]) Taint$/,
    structured: ['Made sure that node has no taint'],
    minors: { printf: [10, 20], structured: { 'Made sure that node has no taint': [21, NOW] } },
    read: () => [{ noted: 'the controller made sure a taint was absent (not necessarily a removal)' }],
  },
  {
    id: 'taint-manager-delete',
    upstream:
      'NoExecuteTaintManager deletePodHandler: glog.V(0) "NoExecuteTaintManager is deleting Pod: %v" (1.8–1.20); ' +
      'InfoS "NoExecuteTaintManager is deleting pod" pod= (1.21–1.28); ' +
      'taint-eviction-controller "Deleting pod" controller= pod= (1.29+, pkg/controller/tainteviction)',
    printf: /^NoExecuteTaintManager is deleting Pod:? (\S+)$/,
    structured: ['NoExecuteTaintManager is deleting pod', 'Deleting pod'],
    minors: { printf: [8, 20], structured: { 'NoExecuteTaintManager is deleting pod': [21, 28], 'Deleting pod': [29, NOW] } },
    read: (l, m) => {
      if (!m && l.message === 'Deleting pod' && l.kv?.controller && !/taint/.test(l.kv.controller)) return [];
      const p = m ? m[1] : kv(l, 'pod');
      return p ? [{ decision: { controller: 'taint-eviction', action: 'PodEvicted', object: pod(p) } }] : [];
    },
  },
  {
    id: 'mark-pods-not-ready',
    upstream:
      'MarkPodsNotReady (pkg/controller/util/node): V(2) "Updating ready status of pod %v to false" (pod name only, 1.9–1.20); ' +
      '"Updating ready status of pod to false" pod= (1.21+)',
    printf: /^Updating ready status of pod (\S+) to false$/,
    structured: ['Updating ready status of pod to false'],
    minors: { printf: [9, 20], structured: { 'Updating ready status of pod to false': [21, NOW] } },
    read: (l, m) => {
      const p = m ? m[1] : kv(l, 'pod');
      return p ? [{ decision: { controller: 'node-lifecycle', action: 'PodsMarkedNotReady', object: pod(p) } }] : [];
    },
  },
  {
    id: 'status-unknown',
    upstream:
      'tryUpdateNodeHealth: "node %v hasn\'t been updated for %+v. Last %v is: %+v" (V(4) 1.12+, V(2) before); ' +
      '"Node hasn\'t been updated" node= conditionType= (1.21+). Only the Ready condition counts here.',
    printf: /^[Nn]ode (\S+) hasn't been updated for \S+\. Last (?:ready condition|Ready) is: /,
    structured: ["Node hasn't been updated"],
    minors: { printf: [0, 20], structured: { "Node hasn't been updated": [21, NOW] } },
    read: (l, m) => {
      if (!m && kv(l, 'conditionType') !== undefined && kv(l, 'conditionType') !== 'Ready') return [];
      const n = m ? m[1] : kv(l, 'node');
      return n ? [{ decision: { controller: 'node-lifecycle', action: 'NodeStatusUnknown', object: node(n) } }] : [];
    },
  },
  {
    id: 'healthy-again',
    upstream: 'monitorNodeHealth: V(2) "Node %s is healthy again, removing all taints" (1.12–1.20); "Node is healthy again, removing all taints" node= (1.21+)',
    printf: /^Node (\S+) is healthy again, removing all taints$/,
    structured: ['Node is healthy again, removing all taints'],
    minors: { printf: [12, 20], structured: { 'Node is healthy again, removing all taints': [21, NOW] } },
    read: (l, m) => {
      const n = m ? m[1] : kv(l, 'node');
      return n ? [{ healthy: n }] : [];
    },
  },
  {
    id: 'replicaset-too-few',
    upstream:
      'ReplicaSetController.manageReplicas: glog.V(2) "Too few replicas for %v %s/%s, need %d, creating %d" (to 1.20); ' +
      'V(2).InfoS "Too few replicas" replicaSet= need= creating= (1.21+)',
    printf: /^Too few replicas for \S+ (\S+)\/(\S+), need (\d+), creating (\d+)$/,
    structured: ['Too few replicas'],
    minors: { printf: [0, 20], structured: { 'Too few replicas': [21, NOW] } },
    read: (l, m) => {
      const rs = m ? `${m[1]}/${m[2]}` : kv(l, 'replicaSet');
      const n = Number(m ? m[4] : kv(l, 'creating'));
      return rs && n > 0 ? [{ decision: { controller: 'replicaset', action: 'PodsCreated', object: `ReplicaSet/${rs}` }, times: n }] : [];
    },
  },
  {
    id: 'replicaset-too-many',
    upstream:
      'ReplicaSetController.manageReplicas: "Too many replicas for %v %s/%s, need %d, deleting %d" (to 1.20); "Too many replicas" replicaSet= need= deleting= (1.21+)',
    printf: /^Too many replicas for \S+ (\S+)\/(\S+), need (\d+), deleting (\d+)$/,
    structured: ['Too many replicas'],
    minors: { printf: [0, 20], structured: { 'Too many replicas': [21, NOW] } },
    read: (l, m) => {
      const rs = m ? `${m[1]}/${m[2]}` : kv(l, 'replicaSet');
      const n = Number(m ? m[4] : kv(l, 'deleting'));
      return rs && n > 0 ? [{ decision: { controller: 'replicaset', action: 'PodsDeleted', object: `ReplicaSet/${rs}` }, times: n }] : [];
    },
  },
  {
    id: 'leader',
    // printf in every version (klog.Infof in acquire(), read at master in 2026): it dates nothing
    upstream:
      'client-go tools/leaderelection: klog.Infof "successfully acquired lease %v" (1.12 to the newest); a structured "successfully acquired lease" lease= is matched too',
    printf: /^successfully acquired lease (\S*kube-controller-manager\S*)$/,
    structured: ['successfully acquired lease'],
    read: (l, m) => {
      const lease = m ? m[1] : kv(l, 'lease');
      return lease && /kube-controller-manager/.test(lease) ? [{ leader: lease }] : [];
    },
  },
  {
    id: 'event',
    upstream:
      "client-go tools/record: \"Event(%#v): type: '%v' reason: '%v' %v\" (to 1.19); " + '"Event occurred" object= kind= type= reason= message= (1.20+)',
    printf: /^Event\(v1\.ObjectReference\{Kind:"(\w*)", Namespace:"([^"]*)", Name:"([^"]*)".*?\}\): type: '(\w+)' reason: '(\w+)' (.*)$/,
    structured: ['Event occurred'],
    read: (l, m) => {
      if (m) return [{ event: { kind: m[1], namespace: m[2], name: m[3], reason: m[5], message: m[6] } }];
      const obj = kv(l, 'object') ?? '';
      const slash = obj.indexOf('/');
      return [
        {
          event: {
            kind: kv(l, 'kind') ?? '',
            namespace: slash >= 0 ? obj.slice(0, slash) : '',
            name: slash >= 0 ? obj.slice(slash + 1) : obj,
            reason: kv(l, 'reason') ?? '',
            message: kv(l, 'message') ?? '',
          },
        },
      ];
    },
  },
];

/** The versions that print the wording `line` has, when its pattern dates it. */
export function wordingMinors(pattern: KlogPattern, line: KlogLine, m: RegExpExecArray | null): MinorRange | undefined {
  return m ? pattern.minors?.printf : pattern.minors?.structured?.[line.message];
}

/** The pattern a line matches, and the printf match when it was the printf wording. */
export function matchKlog(line: KlogLine): { pattern: KlogPattern; m: RegExpExecArray | null } | undefined {
  for (const pattern of KLOG_PATTERNS) {
    if (line.kv && pattern.structured?.includes(line.message)) return { pattern, m: null };
    if (!line.kv && pattern.printf) {
      const m = pattern.printf.exec(line.message);
      if (m) return { pattern, m };
    }
  }
  return undefined;
}
