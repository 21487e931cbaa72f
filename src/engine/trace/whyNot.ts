/**
 * "Why not (yet)" as data. For an object and an outcome that has not
 * happened, the checks on the way from the current state to the outcome, in
 * the order the controllers make them, up to and including the first one
 * that is false; when it would become true if nothing else changed; and
 * which input, changed, would make it true. Every check is the result of
 * calling the same guard or decision function the controller decides with
 * (`guard` names it), never a restatement of it, and cites the upstream
 * function it mirrors.
 */
import type { ObjectRef, PodRecord, Taint } from '../model/types';
import type { Micros } from '../model/time';
import type { Check } from './decision';

/** What a why-not is about. */
export type WhyNotOutcome =
  /** the node lifecycle controller adds the not-ready/unreachable NoExecute taint (taint-based evictions) */
  | 'NodeTaintedNoExecute'
  /** the node lifecycle controller releases the node from its zone's eviction queue and deletes its pods (no taint-based evictions) */
  | 'NodePodsEvicted'
  /** the taint eviction controller deletes the pod */
  | 'PodDeletedByTaintEviction'
  /** the node lifecycle controller deletes the pod (DeletePods, no taint-based evictions) */
  | 'PodDeletedByPodEviction'
  /** the node lifecycle controller sets the node's Ready condition to Unknown */
  | 'NodeStatusUnknown'
  /** the zone's queue releases a node (tainting or evicting) */
  | 'ZoneEvicting'
  /** the ReplicaSet controller creates pods for a ReplicaSet that has fewer than spec.replicas */
  | 'ReplicaSetPodsCreated'
  /** the ReplicaSet controller deletes the pod in a scale-down (manageReplicas / getPodsToDelete) */
  | 'PodDeletedByScaleDown'
  /** the ReplicaSet controller deletes pods of a ReplicaSet that has more than spec.replicas */
  | 'ReplicaSetPodsDeleted'
  /** the simplified binder binds the pending pod to a node */
  | 'PodBound';

export interface WhyNotCheck extends Check {
  /** the guard or decision function of ours that was called (a machine guard by its `setup()` name) */
  guard: string;
  /** the kube-controller-manager function it mirrors */
  upstream: string;
  /** its answer now */
  holds: boolean;
  /** the rule in words when it does not hold, where `rule` reads as the positive condition */
  unmet?: string;
}

/** An input that, changed, makes the blocking check true: a property test runs the scenario with it. */
export type Counterfactual =
  /** settings as `--set` takes them, e.g. `{largeClusterSizeThreshold: '5'}` */
  | { kind: 'set'; set: Record<string, string>; description: string }
  /** the pod without its tolerations */
  | { kind: 'dropTolerations'; pod: ObjectRef; description: string }
  /** the pod without its labels (so that no DaemonSet selects it) */
  | { kind: 'dropLabels'; pod: ObjectRef; description: string }
  /** the node's kubelet stops posting at this instant */
  | { kind: 'stopKubelet'; node: string; description: string }
  /** the pod without its nodeSelector and required node affinity (scheduler/counterfactuals.ts) */
  | { kind: 'dropPlacement'; pod: ObjectRef; description: string }
  /** the pod without its containers' resource requests (scheduler/counterfactuals.ts) */
  | { kind: 'dropRequests'; pod: ObjectRef; description: string }
  /** the scenario without its `fail:` events (no injected API fault) */
  | { kind: 'dropFaults'; description: string };

export interface WhyNot {
  /** what did not happen, in words */
  what: string;
  /** the check that holds it back (the blocking check, as rule and values) */
  check: Check;
  /**
   * When it happens if nothing else changes: no event of the timeline before it and no other
   * node of the zone changing its Ready status on the way. Named only when the simulation's
   * own deadlines, tokens and timers make it certain.
   */
  wouldFireAt?: string;
  outcome?: WhyNotOutcome;
  /** the object the outcome is about (a pod's why-not chains to its node's) */
  object?: ObjectRef;
  /** the checks from the current state to the outcome, up to and including the blocking one */
  path?: WhyNotCheck[];
  /** the first check on the path that is false */
  blocking?: WhyNotCheck;
  /** a time that holds only under a condition the world decides (e.g. "if the kubelet stopped now") */
  conditional?: { if: string; at: string };
  /** nothing but a change of input makes it happen */
  never?: boolean;
  /**
   * `never` under the timeline: what of it keeps the outcome from coming ("the timeline stops the
   * kubelet at S and starts it again at R": the pass that reads Ready True again comes first).
   */
  neverIf?: string;
  /** the change of input that would make the blocking check true */
  counterfactual?: Counterfactual;
  /**
   * The timeline's NoExecute taint the `conditional` waits for ("if the timeline taints Node/N with
   * KEY[=VALUE]:NoExecute at S"), as data: what reads the answer on (a later `untaint`) takes the
   * taint from here, not from the text, whose key and value may hold any character.
   */
  timelineTaint?: {
    node: string;
    key: string;
    value?: string;
    effect: 'NoExecute';
    at: string;
    /** `at` as the timeline holds it (the text keeps milliseconds): what reads the answer on finds the taint's own event by it */
    atMicros: number;
  };
  /** the why-not the blocking check comes from (a pod's deletion waits for its node's taint, a ReplicaSet's replacement for a pod's deletion) */
  via?: WhyNot;
  /**
   * The outcome waits until `count` of these pods are deleted (a ReplicaSet whose not-ready pods
   * still count as active): the simulation chains to the pods' own why-nots for the time.
   */
  waitsForDeletion?: {
    pods: ObjectRef[];
    count: number;
    /** the timeline's deletes of any of its active pods from now (the first of each pod): each is one of the deletions */
    timeline?: { pod: ObjectRef; at: Micros }[];
  };
  /**
   * Every entry of each list the check's values cut at LISTED (the first LISTED, then "and N more"), by
   * the value's name: the text stays short, and the JSON output, `explain --lists` and the panel give all.
   */
  lists?: Record<string, unknown[]>;
}

/** How many entries of a list a check's values name; the rest are counted ("and 14 more") and kept whole in `WhyNot.lists`. */
export const LISTED = 20;

/** A list as a check's values name it: the first LISTED entries, then how many more there are. */
export function cutList<T>(items: readonly T[]): (T | string)[] {
  return items.length > LISTED ? [...items.slice(0, LISTED), `and ${items.length - LISTED} more`] : [...items];
}

/** The lists of `named` that cutList cuts, whole, for `WhyNot.lists` (undefined when none is cut). */
export function wholeLists(named: Record<string, readonly unknown[]>): Pick<WhyNot, 'lists'> {
  const cut = Object.entries(named).filter(([, v]) => v.length > LISTED);
  return cut.length ? { lists: Object.fromEntries(cut.map(([k, v]) => [k, [...v]])) } : {};
}

/** The why-not (and those it chains to) with each cut list of its checks' values given whole. */
export function withWholeLists(w: WhyNot): WhyNot {
  const whole = (values: Check['values']): Check['values'] =>
    values && w.lists ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, w.lists![k] ?? v])) : values;
  const check = (c: Check): Check => (c.values ? { ...c, values: whole(c.values) } : c);
  return {
    ...w,
    check: check(w.check),
    ...(w.blocking ? { blocking: { ...w.blocking, ...(w.blocking.values ? { values: whole(w.blocking.values) } : {}) } } : {}),
    ...(w.path ? { path: w.path.map((c) => (c.values ? { ...c, values: whole(c.values) } : c)) } : {}),
    ...(w.via ? { via: withWholeLists(w.via) } : {}),
  };
}

/** What the world says of a node's kubelet (the simulation's kubelets), for "it holds while the kubelet posts". */
export interface KubeletFacts {
  /** it still posts node status or renews its Lease (as the version heartbeats) */
  running: boolean;
  /** what it still does: `posts node status`, `renews its Lease` */
  does?: string[];
  lastPost?: number;
  nextPost?: number;
  nextRenew?: number;
  /** how often it posts an unchanged status, its status update ticks (a re-post comes at one), and its Lease renewals */
  postEvery?: number;
  updateEvery?: number;
  /** the Ready status it posts (its status posts running) */
  postsReady?: string;
  /** it posts node status, renews no Lease, and posts further apart than nodeMonitorGracePeriod: its node goes Unknown between posts */
  lapses?: true;
  renewEvery?: number;
}

export interface WhyNotWorld {
  kubelet(node: string): KubeletFacts | undefined;
  /**
   * When the scenario's timeline next stops the node's kubelet (status and Lease), with no other
   * event of the timeline about its kubelet or conditions before; and how often it posts and renews
   * until then. `readyAfter`: the timeline's next event about the node after the stop sets its Ready
   * condition (a post of the stopped kubelet, read by the next pass). `restartAt`: a whole start of the running
   * kubelet comes first (it posts and renews then; nothing else about the node comes between). Undefined when the
   * timeline does not.
   */
  stopsAt?(node: string): { at: number; postEvery: number; renewEvery?: number; readyAfter?: { at: number; status: string }; restartAt?: number } | undefined;
  /**
   * When the scenario's timeline next sets the node's Ready condition (a `condition` event), with no
   * other event about its kubelet or conditions before. Undefined when it does not.
   */
  readyAt?(node: string): { at: number; status: string } | undefined;
  /**
   * When the timeline next changes the node's kubelet or conditions after it stops: for a kubelet
   * stopped now, the timeline's first event about it; for one the timeline stops (`stoppedAt`), the
   * event after that stop. `start`: a `kubelet: start` that posts status again (Ready True); `seenAt`:
   * the monitor pass that reads it (a pass at the same instant runs after the timeline's event); `again`: the timeline
   * has another event about the kubelet or conditions after that one (a stop again: the outcome may still come).
   */
  resumesAt?(node: string): { at: number; start: boolean; seenAt?: number; stoppedAt?: number; again?: boolean } | undefined;
  /**
   * When the scenario's timeline scales the ReplicaSet (`namespace/name`) and to how many, when that
   * scale comes before any other event of the timeline but other scales (an event could change its
   * pods or the controller first). Undefined when it does not.
   */
  scalesTo?(replicaSet: string): { at: number; replicas: number } | undefined;
  /**
   * Every scale of the ReplicaSet the timeline holds from now, in time order, the last of each
   * instant (the sync after them reads it); `afterOthers`: another kind of event comes before it
   * (it may change the pods or the controller first). Empty when there is none.
   */
  scalesOf?(replicaSet: string): { at: number; replicas: number; afterOthers: boolean }[];
  /**
   * When the scenario's timeline first deletes an active pod the ReplicaSet (`namespace/name`)
   * controls, with only scales of other ReplicaSets and other deletes before it. Undefined when it
   * does not.
   */
  deletesOf?(replicaSet: string): { at: number; pod: ObjectRef } | undefined;
  /** When the scenario's timeline first deletes the pod (a `delete` event of this ref), whatever comes before. */
  deletedAt?(pod: ObjectRef): number | undefined;
  /**
   * When the scenario's timeline next adds a NoExecute taint to the node (a `taint` event), with no
   * other event about its kubelet, conditions or taints before. Undefined when it does not.
   */
  taintsAt?(node: string): { at: number; taint: Taint } | undefined;
  /**
   * The timeline's events about the node from now, in order: its taints added and removed (`taint`
   * as written; an untaint's effect may be absent) and any event about its kubelet or conditions
   * (`kubelet`: the node lifecycle controller may taint it after one).
   */
  nodeEvents?(node: string): { at: number; kind: 'taint' | 'untaint' | 'kubelet'; taint?: { key: string; effect?: Taint['effect']; value?: string } }[];
  /**
   * The timeline's events from now up to `until` (inclusive), scales left out, in time order, by what they
   * reach (WhyNotWorld users read only their reach, not the event).
   */
  eventsUntil?(until: Micros): TimelineEvent[];
  /**
   * The pod as the ReplicaSet controller will read it at `at`, when its node is failing now or its kubelet
   * is stopped by the timeline before then (simulation/podsAhead.ts): not ready from the monitor pass that
   * sets its node Unknown; undefined when it may be deleted by then or a time is not certain.
   */
  podAt?(pod: PodRecord, at: Micros): PodRecord | undefined;
  /**
   * What one question works out once and every object it asks about shares (a node's taint or
   * eviction, a zone's walk): a ReplicaSet's answer asks it of each pod on a failing node. A world
   * lives for one question, so the cluster does not change under it.
   */
  memo?: Map<string, unknown>;
}

/** An event of the timeline by what it reaches (WhyNotWorld.eventsUntil). */
export interface TimelineEvent {
  at: Micros;
  /** `stop`: a whole kubelet stop; `node`: another event about nodes (kubelet, condition, taint); `pod`: about one pod; `other`: reach not read */
  kind: 'stop' | 'node' | 'pod' | 'other';
  nodes?: string[];
  pod?: ObjectRef;
  /** the event's kind as the scenario writes it */
  what: string;
}

/**
 * `w` with `check` added to its path, and no time or counterfactual: what read it on found the time it
 * named not certain. `shown`: the check's rule joins the answer's own, so that the reader sees why.
 */
export function withoutTime(w: WhyNot, check: WhyNotCheck, shown = false): WhyNot {
  const rest: WhyNot = {
    ...w,
    ...(shown ? { check: { rule: `${w.check.rule}; ${check.rule}`, values: { ...(w.check.values ?? {}), ...(check.values ?? {}) } } } : {}),
    path: [...(w.path ?? []), check],
  };
  delete rest.wouldFireAt;
  delete rest.conditional;
  delete rest.counterfactual;
  return rest;
}

/** The first check that is false, or undefined when every check holds. */
export function firstFalse(path: readonly WhyNotCheck[]): WhyNotCheck | undefined {
  return path.find((c) => !c.holds);
}

/** A why-not from a path: `check` and `blocking` are the path's first false check. */
export function whyNotFrom(what: string, outcome: WhyNotOutcome, object: ObjectRef, path: WhyNotCheck[], extra: Partial<WhyNot> = {}): WhyNot {
  const blocking = firstFalse(path) ?? path[path.length - 1];
  const check: Check = {
    rule: `${(!blocking.holds && blocking.unmet) || blocking.rule} [${blocking.upstream}]`,
    ...(blocking.values ? { values: blocking.values } : {}),
  };
  return { what, check, outcome, object, path, blocking, ...extra };
}
